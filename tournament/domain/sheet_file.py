"""Reading a Spielliste from a CSV or XLSX file (the ``checksheet`` format).

Header row: ``game``, ``kind``, ``soloist``, then one column per position ``1`` .. ``4``
(or ``5``). ``kind`` is a letter: N normal, P Pflichtsolo, V vorgeführtes Pflichtsolo,
L Lustsolo, H Hochzeit turned solo or stille Hochzeit, S penalty (Strafe). German headers
(Spiel, Art, Solist) are understood too.
"""

from django.utils.translation import gettext as _

from scoring.ledger import Kind
from scoring.sheet import SheetRow, from_cumulative

from ..imports.tabular import ImportFileError, read_table

HEADER_ALIASES = {
    "game": "game",
    "spiel": "game",
    "nr": "game",
    "kind": "kind",
    "art": "kind",
    "soloist": "soloist",
    "solist": "soloist",
}
MAX_POINTS = 10_000


def _number(text: str, line: int, column: str, *, empty=None) -> int | None:
    text = text.strip().replace("\u2212", "-")
    if text == "":
        return empty
    if text.startswith("+"):
        text = text[1:]
    try:
        value = int(text)
    except ValueError:
        raise ImportFileError(
            _("Line %(line)s, column “%(column)s”: “%(value)s” is not a whole number.")
            % {"line": line, "column": column, "value": text[:20]}
        ) from None
    if abs(value) > MAX_POINTS:
        raise ImportFileError(
            _("Line %(line)s, column “%(column)s”: %(value)s is out of range.")
            % {"line": line, "column": column, "value": value}
        )
    return value


def parse_sheet_file(
    filename: str, content: bytes, *, cumulative: bool = False
) -> tuple[int, list[SheetRow]]:
    """(table size, rows with per-game points). Raises ImportFileError with a message."""
    table = [(line, cells) for line, cells in read_table(filename, content) if any(cells)]
    if not table:
        raise ImportFileError(_("The file is empty."))
    header = [cell.strip().casefold() for cell in table[0][1]]
    columns = {HEADER_ALIASES[h]: i for i, h in enumerate(header) if h in HEADER_ALIASES}
    positions = {int(h): i for i, h in enumerate(header) if h.isdecimal() and len(h) < 3}
    size = len(positions)
    if set(columns) != {"game", "kind", "soloist"} or sorted(positions) not in (
        [1, 2, 3, 4],
        [1, 2, 3, 4, 5],
    ):
        raise ImportFileError(
            _("The first line must read: game, kind, soloist, 1, 2, 3, 4 (and 5 at a 5-table).")
        )
    rows: list[SheetRow] = []
    previous = [0] * size
    for line, cells in table[1:]:
        cells = cells + [""] * (len(header) - len(cells))
        game = _number(cells[columns["game"]], line, "game")
        if game is None or game < 1:
            raise ImportFileError(_("Line %(line)s: the game number is missing.") % {"line": line})
        letter = cells[columns["kind"]].strip().upper()
        try:
            kind = Kind(letter)
        except ValueError:
            raise ImportFileError(
                _("Line %(line)s: unknown kind “%(kind)s” (N, P, V, L, H or S).")
                % {"line": line, "kind": letter[:10]}
            ) from None
        soloist = _number(cells[columns["soloist"]], line, "soloist")
        if soloist is not None and not 1 <= soloist <= size:
            raise ImportFileError(
                _("Line %(line)s: there is no position %(position)s at this table.")
                % {"line": line, "position": soloist}
            )
        points = []
        for position in range(1, size + 1):
            fallback = previous[position - 1] if cumulative else 0
            points.append(_number(cells[positions[position]], line, str(position), empty=fallback))
        previous = points
        rows.append(SheetRow(game, kind, soloist, tuple(points)))
    if cumulative:
        rows = from_cumulative(rows)
    return size, rows
