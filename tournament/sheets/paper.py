"""The one reader of paper lists, whether typed into the desk grid, uploaded as a sheet file
or checked with the ``checksheet`` command.

A paper list has one line per game: the game number, the kind letter of
:mod:`scoring.kinds`, the soloist's position and one number per position — the points of
that game or, as most lists are kept, the running totals (an empty cell then repeats the
total above it). Every source is read by the same rules and the same limits
(:data:`~scoring.rows.MAX_POINTS` per game and position, :data:`~scoring.rows.MAX_LINES`
lines).

A sheet file is CSV or XLSX with the header ``game, kind, soloist, 1, 2, 3, 4`` (and ``5``
at a 5-table); the German headers Spiel, Art and Solist are understood too.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from scoring import sheet as checks
from scoring.kinds import GAME_KINDS, Kind
from scoring.penalties import solo_penalty_in_game_row
from scoring.rows import MAX_LINES, MAX_POINTS
from scoring.sheet import SheetRow, from_cumulative

from ..domain.actor import Actor
from ..imports.tabular import ImportFileError, read_table
from ..models import GameKind, Table
from ..wording.findings import finding_message
from .verbs import RowInput, replace_rows

HEADER_ALIASES = {
    "game": "game",
    "spiel": "game",
    "nr": "game",
    "kind": "kind",
    "art": "kind",
    "soloist": "soloist",
    "solist": "soloist",
}
# Problems of a file shown at once: enough to fix a few lines, short enough to read.
SHOWN_PROBLEMS = 5


@dataclass(frozen=True)
class Line:
    """One line of a paper list as written: ``number`` says where it is (the desk line or
    the line of the file), the other fields are the text of its cells."""

    number: int
    game: str
    kind: str
    soloist: str
    points: tuple[str, ...]


@dataclass
class Paper:
    """What a paper list says: its rows with the points of each game, and what is wrong
    with which line (line number -> messages). Rows of bad lines are not to be trusted."""

    rows: list[SheetRow] = field(default_factory=list)
    problems: dict[int, list[str]] = field(default_factory=dict)

    def problem(self, line: int, message: str) -> None:
        self.problems.setdefault(line, []).append(message)


def _letters(kinds: Iterable[Kind]) -> str:
    return ", ".join(kind.value for kind in kinds)


def _integer(text: str) -> int | None:
    text = text.strip().replace("\u2212", "-").removeprefix("+")
    try:
        return int(text)
    except ValueError:
        return None


def _kind(text: str, games_only: bool) -> tuple[Kind | None, str]:
    letter = text.strip().upper()
    try:
        kind = Kind(letter)
    except ValueError:
        kinds = GAME_KINDS if games_only else tuple(Kind)
        message = _("Unknown kind “%(kind)s” (%(letters)s).")
        return None, message % {"kind": letter[:10], "letters": _letters(kinds)}
    if games_only and not kind.is_game:
        message = _(
            "%(letter)s is a penalty: penalties are entered by the referees, not from the "
            "list. A stille Hochzeit is %(stille)s."
        )
        return None, message % {"letter": kind.value, "stille": Kind.STILLE_HOCHZEIT.value}
    return kind, ""


def read(
    lines: Sequence[Line], size: int, *, cumulative: bool = False, games_only: bool = True
) -> Paper:
    """The rows of a paper list of a table of ``size``, with the points of each game.

    ``games_only``: the list becomes the stored games of a table (desk grid, file import),
    so every line must be a complete game (S, a penalty, comes from the referees) and the
    games must be numbered 1, 2, 3, … Otherwise (``checksheet``) penalty rows are read too
    and the rest is left to the checks of :func:`scoring.sheet.check_sheet`.
    """
    paper = Paper()
    if len(lines) > MAX_LINES:
        paper.problem(
            lines[MAX_LINES].number,
            _("A score sheet has at most %(limit)s lines.") % {"limit": MAX_LINES},
        )
        return paper
    previous = [0] * size
    count = 0
    for line in lines:
        number = line.number
        game = _integer(line.game)
        if not line.game.strip():
            paper.problem(number, _("The game number is missing."))
        elif game is None or game < 1:
            paper.problem(number, _("“%(text)s” is no game number.") % {"text": line.game[:10]})
        kind, message = _kind(line.kind, games_only)
        if message:
            paper.problem(number, message)
        soloist = None
        if line.soloist.strip():
            soloist = _integer(line.soloist)
            if soloist is None or not 1 <= soloist <= size:
                message = _("There is no position “%(position)s” at this table.")
                paper.problem(number, message % {"position": line.soloist.strip()[:10]})
                soloist = None
        if games_only:
            count += 1
            if game is not None and game >= 1 and game != count:
                message = _("Game numbers must run 1, 2, 3, …: expected %(expected)s here.")
                paper.problem(number, message % {"expected": count})
            if kind is not None and kind.is_solo and not line.soloist.strip():
                paper.problem(number, _("A solo needs the position of the soloist."))
            if kind is Kind.NORMAL and soloist is not None:
                paper.problem(number, _("A normal game has no soloist."))
        values = []
        for position, text in enumerate(line.points, start=1):
            value = previous[position - 1] if cumulative else 0
            if text.strip():
                typed = _integer(text)
                if typed is None:
                    message = _("“%(text)s” under position %(position)s is not a whole number.")
                    paper.problem(
                        number, message % {"text": text.strip()[:20], "position": position}
                    )
                else:
                    value = typed
            values.append(value)
        previous = values
        paper.rows.append(SheetRow(game or 0, kind or Kind.NORMAL, soloist, tuple(values)))
    if cumulative:
        paper.rows = from_cumulative(paper.rows)
    for line, row in zip(lines, paper.rows, strict=True):
        for value in row.points:
            if abs(value) > MAX_POINTS:
                message = _("%(value)s points in one game is not possible — typo?")
                paper.problem(line.number, message % {"value": value})
        penalty = solo_penalty_in_game_row(row.points, row.soloist) if row.kind.is_solo else None
        if games_only and penalty is not None:
            # A referee's TSR 9.4.4 result in the solo's row: how to enter it, nothing stored.
            params = {"offender": penalty[0], "amount": penalty[1], "soloist": row.soloist}
            paper.problem(line.number, finding_message("solo-penalty-in-row", params))
    return paper


def as_played(rows: Sequence[SheetRow], table: Table) -> list[SheetRow]:
    """The rows of a paper list of ``table`` with what paper cannot say filled in: a
    Pflichtsolo written where vorführen was due is the vorgeführte one
    (:func:`scoring.sheet.as_played`, TSR 4.2.3, 4.2.4)."""
    profile = table.round.tournament.profile
    limit = table.sheet.time_limit_from
    return checks.as_played(profile, table.size, rows, time_limit_from=limit)


def games(rows: Iterable[SheetRow]) -> list[RowInput]:
    """The rows of a list read with ``games_only`` as games to store."""
    return [RowInput(GameKind.of(row.kind).value, row.soloist, row.points) for row in rows]


def read_file(
    filename: str, content: bytes, *, cumulative: bool = False, games_only: bool = True
) -> tuple[int, list[SheetRow]]:
    """(table size, rows with the points of each game) of a sheet file, as :func:`read`.
    Raises :class:`ImportFileError` naming the bad lines."""
    # The header, MAX_LINES lines and one more to see that there are too many.
    cells = read_table(filename, content, max_rows=MAX_LINES + 2)
    table = [(line, row) for line, row in cells if any(row)]
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
    lines = []
    for number, row in table[1:]:
        row = row + [""] * (len(header) - len(row))
        points = tuple(row[positions[p]] for p in range(1, size + 1))
        lines.append(
            Line(
                number, row[columns["game"]], row[columns["kind"]], row[columns["soloist"]], points
            )
        )
    paper = read(lines, size, cumulative=cumulative, games_only=games_only)
    if paper.problems:
        messages = [
            f"{_('Line %(number)s') % {'number': line}}: {problem}"
            for line, problems in sorted(paper.problems.items())
            for problem in problems
        ]
        raise ImportFileError(" ".join(messages[:SHOWN_PROBLEMS]))
    return size, paper.rows


def import_file(
    table: Table,
    actor: Actor,
    filename: str,
    content: bytes,
    *,
    cumulative: bool = False,
    replace: bool = False,
    reason: str = "",
) -> int:
    """Make the table's sheet read the games of a sheet file. Rows already entered are
    replaced only when asked to (``replace``), and as one change: a row stored since they
    were read is a :class:`~tournament.sheets.verbs.Conflict`. Returns the number of rows
    written or removed."""
    size, rows = read_file(filename, content, cumulative=cumulative)
    if not rows:
        raise ImportFileError(_("The file holds no games."))
    if size != table.size:
        raise ImportFileError(
            _("The file is for a table of %(file)s, this table has %(table)s players.")
            % {"file": size, "table": table.size}
        )
    versions = {game.number: game.version for game in table.games.all()}
    if versions and not replace:
        raise ImportFileError(
            _(
                "This sheet already has games: tick “replace the rows already entered” "
                "to overwrite them."
            )
        )
    return replace_rows(table, actor, games(as_played(rows, table)), versions, reason)
