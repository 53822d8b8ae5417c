"""Reading uploaded tables (CSV as German Excel writes it, or XLSX) into rows of strings.

Used by the player import and the Spielliste import alike. Both formats have a handful of
columns, so only the first ``MAX_COLUMNS`` of a line are read. An XLSX file is a zip of XML
parts; it is read here with a streaming parser that keeps nothing but the cells it returns,
whatever the file claims about its size (openpyxl pads every row to the claimed width and
keeps a whole row in memory: a few KB of upload cost seconds and hundreds of MB).

Every read is bounded: rows, columns, characters per cell, XML elements, unpacked bytes and
the characters of all cells together (one shared string may be referenced by every cell).
"""

import contextlib
import csv
import io
import posixpath
import re
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from xml.parsers import expat

from django.conf import settings
from django.utils.translation import gettext as _

from ..errors import DomainError

MAX_ROWS = 5000
MAX_COLUMNS = 30
# An XLSX file unpacks to its XML parts; a real list of MAX_ROWS lines needs a few MB.
MAX_UNPACKED_BYTES = 32 * 1024 * 1024
# XML elements read from all parts together: cells, values, rows, strings, ...
MAX_XML_ELEMENTS = (MAX_ROWS + 1) * MAX_COLUMNS * 4
MAX_CELL_CHARS = 1000
# Characters of all cells one read returns (and of all shared strings of an XLSX file): a
# real list has a few hundred thousand; without it, 20 KB of XLSX that point every cell at
# one long shared string would make 150 million.
MAX_TABLE_CHARS = 4_000_000
# expat hands character data over in pieces (every line break, every entity on its own);
# with a buffer the handlers see at most one call per this many characters.
TEXT_BUFFER_CHARS = 1 << 16

_CELL_REF = re.compile(r"([A-Z]{1,3})(\d*)$")


class ImportFileError(DomainError):
    """The file as a whole cannot be read: empty, too large, damaged or of another type."""


def read_table(
    filename: str, content: bytes, *, max_rows: int | None = None
) -> list[tuple[int, list[str]]]:
    """The rows of an uploaded CSV or XLSX file as (line number, cells), all cells strings,
    at most ``MAX_COLUMNS`` per row.

    With ``max_rows`` reading stops after that many rows that have a non-empty cell: the
    caller gets those (and the empty rows between them), the rest of the file is not read.
    Pass one more than the caller's limit to tell "too many" from "just enough".
    """
    if not content.strip():
        raise ImportFileError(_("The file is empty."))
    if len(content) > settings.IMPORT_MAX_BYTES:
        raise ImportFileError(
            _("The file is larger than %(limit)s MB.")
            % {"limit": settings.IMPORT_MAX_BYTES // (1024 * 1024)}
        )
    lower = filename.lower()
    if content.startswith(b"PK\x03\x04") or lower.endswith((".xlsx", ".xlsm")):
        return _read_xlsx(content, max_rows)
    if content.startswith(b"\xd0\xcf\x11\xe0") or lower.endswith(".xls"):
        raise ImportFileError(
            _("Old Excel files (.xls) cannot be read. Please save the list as .xlsx or .csv.")
        )
    return _read_csv(content, max_rows)


def _read_csv(content: bytes, max_rows: int | None) -> list[tuple[int, list[str]]]:
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
    if not text.strip():  # a byte order mark alone, or a space that is no ASCII byte
        raise ImportFileError(_("The file is empty."))
    first_line = text.lstrip().splitlines()[0]
    delimiter = max(";,\t", key=first_line.count)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    rows = []
    filled = chars = 0
    try:
        for cells in reader:
            kept = [c.strip() for c in cells[:MAX_COLUMNS]]
            chars += sum(map(len, kept))
            if chars > MAX_TABLE_CHARS:
                raise _too_much_text()
            rows.append((reader.line_num, kept))
            if len(rows) > MAX_ROWS + 1:
                raise _too_many()
            filled += any(kept)
            if filled == max_rows:
                break
    except csv.Error as exc:
        raise ImportFileError(
            _("Line %(line)s cannot be read: %(reason)s") % {"line": reader.line_num, "reason": exc}
        ) from None
    return rows


# --- XLSX --------------------------------------------------------------------------------


def _damaged() -> ImportFileError:
    return ImportFileError(_("The Excel file is damaged or not an XLSX file."))


class _Enough(Exception):
    """Raised from a handler to stop parsing once ``max_rows`` rows are read."""


@dataclass
class _StringsParse:
    """How far the parse of the shared strings has got."""

    depth: int = 0  # inside a counted <t> (not a phonetic reading)
    text: list[str] | None = None  # the pieces of the current <si>; None outside one
    length: int = 0  # characters kept of the current string
    phonetic: int = 0  # inside <rPh>
    chars: int = 0  # characters of all strings so far


class _Xlsx:
    """One upload's zip archive, with a budget of XML elements shared by all its parts."""

    def __init__(self, content: bytes) -> None:
        self.archive = zipfile.ZipFile(io.BytesIO(content))
        # zipfile never unpacks more than an entry's declared size (a larger one fails its
        # CRC check), so the declared sizes bound the work.
        if sum(info.file_size for info in self.archive.infolist()) > MAX_UNPACKED_BYTES:
            raise ImportFileError(
                _("The Excel file unpacks to more than %(limit)s MB.")
                % {"limit": MAX_UNPACKED_BYTES // (1024 * 1024)}
            )
        self.elements = 0
        self.text_calls = 0  # calls of the character data handlers, for the tests
        self.chars = 0  # characters of the cells read so far

    def parse(
        self,
        path: str,
        start: Callable[[str, dict[str, str]], None],
        end: Callable[[str], None] | None = None,
        text: Callable[[str], None] | None = None,
    ) -> None:
        """Stream the XML part ``path`` through the handlers; names are local names."""

        def on_start(name: str, attrs: dict[str, str]) -> None:
            self.elements += 1
            if self.elements > MAX_XML_ELEMENTS:
                raise ImportFileError(
                    _("The Excel file holds more data than a list of %(max)s lines.")
                    % {"max": MAX_ROWS}
                )
            start(name.rpartition(" ")[2], attrs)

        def no_doctype(*args) -> None:
            raise _damaged()  # an XLSX part never has a DTD: no entities to expand

        parser = expat.ParserCreate(namespace_separator=" ")
        # One call per run of text, not per line break or entity (each of which would be a
        # handler call: a few KB of zipped line breaks would cost minutes).
        parser.buffer_text = True
        parser.buffer_size = TEXT_BUFFER_CHARS
        parser.StartElementHandler = on_start
        parser.StartDoctypeDeclHandler = no_doctype
        parser.EntityDeclHandler = no_doctype
        if end is not None:
            parser.EndElementHandler = lambda name: end(name.rpartition(" ")[2])
        if text is not None:

            def on_text(data: str) -> None:
                self.text_calls += 1
                text(data)

            parser.CharacterDataHandler = on_text
        with self.archive.open(path) as part:
            parser.ParseFile(part)

    def relationships(self, part: str) -> dict[str, tuple[str, str]]:
        """Id -> (type, target path in the archive) of a part's relationships."""
        folder, name = posixpath.split(part)
        rels_path = posixpath.join(folder, "_rels", name + ".rels")
        found: dict[str, tuple[str, str]] = {}

        def start(tag: str, attrs: dict[str, str]) -> None:
            if tag == "Relationship" and len(found) < 1000:
                target = attrs.get("Target", "")
                if target.startswith("/"):
                    target = target[1:]
                else:
                    target = posixpath.normpath(posixpath.join(folder, target))
                found[attrs.get("Id", "")] = (attrs.get("Type", "").rpartition("/")[2], target)

        self.parse(rels_path, start)
        return found

    def first_sheet(self) -> tuple[str, str | None]:
        """The paths of the first worksheet and of the shared strings (if any)."""
        workbook = next(
            (t for kind, t in self.relationships("").values() if kind == "officeDocument"), None
        )
        if workbook is None:
            raise _damaged()
        relationships = self.relationships(workbook)
        sheets: list[str] = []

        def start(tag: str, attrs: dict[str, str]) -> None:
            if tag == "sheet" and not sheets:
                # r:id, in the transitional or the strict namespace
                ids = [v for k, v in attrs.items() if k.endswith(" id")]
                sheets.append(ids[0] if ids else "")

        self.parse(workbook, start)
        if not sheets or sheets[0] not in relationships:
            raise _damaged()
        strings = next((t for kind, t in relationships.values() if kind == "sharedStrings"), None)
        return relationships[sheets[0]][1], strings

    def shared_strings(self, path: str | None) -> list[str]:
        """The shared strings, each cut to ``MAX_CELL_CHARS`` and stripped once: the cells
        that refer to a string all get the same object."""
        strings: list[str] = []
        if path is None:
            return strings
        state = _StringsParse()

        def start(tag: str, attrs: dict[str, str]) -> None:
            if tag == "si":
                state.text, state.length = [], 0
            elif tag == "rPh":
                state.phonetic += 1
            elif tag == "t" and state.text is not None and not state.phonetic:
                state.depth += 1

        def end(tag: str) -> None:
            if tag == "si" and state.text is not None:
                string = "".join(state.text).strip()
                state.chars += len(string)
                if state.chars > MAX_TABLE_CHARS:
                    raise _too_much_text()
                strings.append(string)
                state.text = None
            elif tag == "rPh":
                state.phonetic -= 1
            elif tag == "t" and state.depth:
                state.depth -= 1

        def text(data: str) -> None:
            room = MAX_CELL_CHARS - state.length
            if room > 0 and state.depth and state.text is not None:
                state.text.append(data[:room])
                state.length += min(len(data), room)

        self.parse(path, start, end, text)
        return strings

    def rows(
        self, path: str, strings: list[str], max_rows: int | None = None
    ) -> list[tuple[int, list[str]]]:
        rows: list[tuple[int, list[str]]] = []
        row: dict = {"number": 0, "cells": [], "column": 0, "filled": 0}
        cell: dict = {}

        def start(tag: str, attrs: dict[str, str]) -> None:
            if tag == "row":
                number = attrs.get("r", "")
                row["number"] = int(number) if number.isdecimal() else row["number"] + 1
                row["cells"], row["column"] = [], 0
            elif tag == "c":
                match = _CELL_REF.match(attrs.get("r", ""))
                row["column"] = _column(match.group(1)) if match else row["column"] + 1
                cell.clear()
                if row["column"] <= MAX_COLUMNS:
                    cell.update(type=attrs.get("t", "n"), value=[], length=0, inline=0, phonetic=0)
            elif cell and tag == "rPh":
                cell["phonetic"] += 1
            elif cell and (tag == "v" or (tag == "t" and not cell["phonetic"])):
                cell["inline"] += 1

        def end(tag: str) -> None:
            if tag == "row":
                if len(rows) >= MAX_ROWS + 1:
                    raise _too_many()
                rows.append((row["number"], row["cells"]))
                row["filled"] += any(row["cells"])
                if row["filled"] == max_rows:
                    raise _Enough
            elif tag == "c" and cell:
                cells = row["cells"]
                cells.extend([""] * (row["column"] - 1 - len(cells)))
                if len(cells) < row["column"]:
                    value = _cell_value(cell["type"], "".join(cell["value"]), strings)
                    self.chars += len(value)
                    if self.chars > MAX_TABLE_CHARS:
                        raise _too_much_text()
                    cells.append(value)
                cell.clear()
            elif cell and tag == "rPh":
                cell["phonetic"] -= 1
            elif cell and cell["inline"] and tag in ("v", "t"):
                cell["inline"] -= 1

        def text(data: str) -> None:
            if cell and cell["inline"] and cell["length"] < MAX_CELL_CHARS:
                room = MAX_CELL_CHARS - cell["length"]
                cell["value"].append(data[:room])
                cell["length"] += min(len(data), room)

        # _Enough: the caller has the rows it asked for; the rest stays unread
        with contextlib.suppress(_Enough):
            self.parse(path, start, end, text)
        return rows


def _column(letters: str) -> int:
    number = 0
    for letter in letters:
        number = number * 26 + ord(letter) - ord("A") + 1
    return number


def _cell_value(kind: str, text: str, strings: list[str]) -> str:
    if kind == "s":
        if not text.strip().isdecimal() or int(text) >= len(strings):
            raise _damaged()
        return strings[int(text)]  # stripped once, the same object for every cell
    if kind == "b":
        return {"1": "True", "0": "False"}.get(text.strip(), "")
    if kind == "n" and text:
        try:
            number = float(text)
        except ValueError:
            raise _damaged() from None
        if number.is_integer() and abs(number) < 1e16:
            return str(int(number))
        return str(number)
    return text.strip()[:MAX_CELL_CHARS]


def _read_xlsx(content: bytes, max_rows: int | None) -> list[tuple[int, list[str]]]:
    try:
        xlsx = _Xlsx(content)
        with xlsx.archive:
            sheet, strings_path = xlsx.first_sheet()
            strings = xlsx.shared_strings(strings_path)
            return xlsx.rows(sheet, strings, max_rows)
    except (
        zipfile.BadZipFile,  # not a zip, or a part fails its CRC check
        KeyError,  # a part is missing
        expat.ExpatError,  # malformed XML
        zlib.error,
        RuntimeError,  # an encrypted part
        NotImplementedError,  # an unknown compression method
        OSError,
        EOFError,
        ValueError,
    ):
        raise _damaged() from None


def _too_many() -> ImportFileError:
    return ImportFileError(_("The file has more than %(max)s lines.") % {"max": MAX_ROWS})


def _too_much_text() -> ImportFileError:
    return ImportFileError(
        _("The file holds more than %(limit)s million characters of text.")
        % {"limit": MAX_TABLE_CHARS // 1_000_000}
    )
