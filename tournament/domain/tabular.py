"""Reading uploaded tables (CSV as German Excel writes it, or XLSX) into rows of strings.

Used by the player import and the Spielliste import alike.
"""

import csv
import io
import zipfile

from django.conf import settings
from django.utils.translation import gettext as _

from . import DomainError

MAX_ROWS = 5000


class ImportFileError(DomainError):
    """The file as a whole cannot be read: empty, too large, damaged or of another type."""


def read_table(filename: str, content: bytes) -> list[tuple[int, list[str]]]:
    """The rows of an uploaded CSV or XLSX file as (line number, cells), all cells strings."""
    if not content.strip():
        raise ImportFileError(_("The file is empty."))
    if len(content) > settings.IMPORT_MAX_BYTES:
        raise ImportFileError(
            _("The file is larger than %(limit)s MB.")
            % {"limit": settings.IMPORT_MAX_BYTES // (1024 * 1024)}
        )
    lower = filename.lower()
    if content.startswith(b"PK\x03\x04") or lower.endswith((".xlsx", ".xlsm")):
        return _read_xlsx(content)
    if content.startswith(b"\xd0\xcf\x11\xe0") or lower.endswith(".xls"):
        raise ImportFileError(
            _("Old Excel files (.xls) cannot be read. Please save the list as .xlsx or .csv.")
        )
    return _read_csv(content)


def _read_csv(content: bytes) -> list[tuple[int, list[str]]]:
    if b"\x00" in content:
        raise ImportFileError(_("The file is not a text file (CSV) nor an Excel file (XLSX)."))
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError:
        try:
            # German Excel saves CSV in Windows-1252.
            text = content.decode("cp1252")
        except UnicodeDecodeError:
            raise ImportFileError(
                _("The file's characters cannot be read (expected UTF-8 or Windows-1252).")
            ) from None
    first_line = text.lstrip().splitlines()[0]
    delimiter = max(";,\t", key=first_line.count)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    rows = []
    try:
        for cells in reader:
            rows.append((reader.line_num, [c.strip() for c in cells]))
            if len(rows) > MAX_ROWS + 1:
                raise _too_many()
    except csv.Error as exc:
        raise ImportFileError(
            _("Line %(line)s cannot be read: %(reason)s") % {"line": reader.line_num, "reason": exc}
        ) from None
    return rows


def _read_xlsx(content: bytes) -> list[tuple[int, list[str]]]:
    # Imported here: openpyxl is only needed for this path.
    from openpyxl import load_workbook

    try:
        workbook = load_workbook(io.BytesIO(content), read_only=True, data_only=True)
    except (zipfile.BadZipFile, KeyError, OSError, ValueError, TypeError):
        raise ImportFileError(_("The Excel file is damaged or not an XLSX file.")) from None
    try:
        sheet = workbook.worksheets[0]
        rows = []
        for number, values in enumerate(sheet.iter_rows(values_only=True), start=1):
            rows.append((number, [_cell_text(v) for v in values]))
            if len(rows) > MAX_ROWS + 1:
                raise _too_many()
        return rows
    except (zipfile.BadZipFile, KeyError, OSError, ValueError, TypeError, IndexError):
        raise ImportFileError(_("The Excel file is damaged or not an XLSX file.")) from None
    finally:
        workbook.close()


def _cell_text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def _too_many() -> ImportFileError:
    return ImportFileError(_("The file has more than %(max)s lines.") % {"max": MAX_ROWS})
