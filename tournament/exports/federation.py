"""Results for a federation: every player's result of one tournament in a fixed, documented
format (README, "Results for the federation") that a ranking-list officer can take in, as a
CSV file and as an Excel workbook.

The format is a promise. The column keys below are the header row of both files, the same
in every language of the site, and they keep their names, meaning and order. The points
per round come last, one column per round (``r1``, ``r2``, …; their number varies with the
tournament); a column added later goes in after ``status``, before the rounds, so that no
existing column ever moves.

The rows are the standings (:func:`tournament.queries.standings.compute`): the same ranks, points,
penalties and order as the standings page, the ranked players first, then the disqualified
ones without a rank. Players who never sat at a table are not in the file. Only the games
each player took part in are counted here (:func:`games_played`).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from io import BytesIO

from django.db.models import Q
from django.utils.translation import gettext as _
from openpyxl import Workbook

from scoring.ledger import PlayedGame, walk
from scoring.profiles import RuleProfile

from ..models import Game, GameKind, RoundResult, RoundStatus, Seat, Tournament
from ..queries import standings as standings_domain
from ..queries.standings import Standings
from . import xlsx
from .rows import Column, ColumnKind, Listing, Value, heading, standings_state

# The fixed columns, in their order; the points per round follow them.
FIXED_COLUMNS = (
    ("rank", ColumnKind.RANK),
    ("ddv_number", ColumnKind.TEXT),  # text: a member number may start with 0
    ("last_name", ColumnKind.NAME),
    ("first_name", ColumnKind.NAME),
    ("club", ColumnKind.TEXT),
    ("start_number", ColumnKind.NUMBER),
    ("rounds_played", ColumnKind.NUMBER),
    ("games_played", ColumnKind.NUMBER),
    ("penalty_points", ColumnKind.PENALTIES),
    ("total", ColumnKind.TOTAL),
    ("status", ColumnKind.TEXT),
)

# What a spreadsheet program would read as the start of a formula (OWASP's list: "=", "+",
# "-", "@", tab and carriage return). A text cell of the CSV file starting with one of them
# gets a single quote in front; numbers are written as numbers, a negative one included.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def round_key(number: int) -> str:
    return f"r{number}"


def header(round_numbers: list[int]) -> list[str]:
    """The header row of both files: the column keys, the rounds last."""
    return [key for key, _kind in FIXED_COLUMNS] + [round_key(n) for n in round_numbers]


def columns(round_numbers: list[int]) -> list[Column]:
    """The columns; each one's label is its key, since the key is the header of the files."""
    fixed = [Column(key, key, kind) for key, kind in FIXED_COLUMNS]
    return fixed + [Column(round_key(n), round_key(n), ColumnKind.POINTS) for n in round_numbers]


def meanings(round_numbers: list[int]) -> list[tuple[str, str]]:
    """(key, what the column holds) for the legend of the Excel file."""
    fixed = {
        "rank": _(
            "Rank in the standings: equal totals share a rank (1, 2, 2, 4) unless the "
            "tournament's tie-breakers decide. Empty for a disqualified player."
        ),
        "ddv_number": _("DDV member number, as text; empty if not known."),
        "last_name": _("Last name."),
        "first_name": _("First name."),
        "club": _("Club; empty if none."),
        "start_number": _("Start number in this tournament."),
        "rounds_played": _("Rounds in which the player sat at a table that counts."),
        "games_played": _(
            "Games the player took part in; at a five-player table the dealer sits out each game."
        ),
        "penalty_points": _(
            "Penalty points: the sum of the penalty rows at the player's seats (negative "
            "for the player's own penalties), counted in the total."
        ),
        "total": _("Total: the points of every round plus the penalty points."),
        "status": _(
            "Status of the entry: active, withdrawn or disqualified (these English words "
            "in every language)."
        ),
    }
    rounds = [
        (
            round_key(n),
            _(
                "Game points in round %(number)s, without penalties; empty if the player "
                "did not play that round."
            )
            % {"number": n},
        )
        for n in round_numbers
    ]
    return [(key, fixed[key]) for key, _kind in FIXED_COLUMNS] + rounds


def games_played(standings: Standings) -> dict[int, int]:
    """Entry id -> the games the player took part in at the tables that count.

    At a four-player table that is every game of the sheet. At a five-player table the
    dealer sits each game out, and who deals is not stored with the game: it follows from
    the games before it (a Pflichtsolo keeps the deal, a vorgeführtes Pflichtsolo may pass
    it on), so the sheet's ledger is walked as the sheet pages walk it. A zero in a
    player's column says nothing: a player in the game can score 0 too.

    Three queries, whatever the size of the field: the stored results of the closed rounds,
    the seats and the games of the running round. A seat counts where the standings counted
    its round for the player (one seat per player and round), so this follows the standings'
    rule of what counts.
    """
    tournament = standings.tournament
    counted = {(line.entry.pk, number) for line in standings.lines for number in line.rounds}
    played: Counter[int] = Counter()
    # A closed round's games per player are stored with its results; the running round's
    # (and a closed round's without stored results) are counted from its sheets.
    stored = (
        RoundResult.objects.filter(round__tournament=tournament, round__status=RoundStatus.CLOSED)
        .order_by()
        .values_list("entry_id", "round__number", "games")
    )
    closed: set[int] = set()
    for entry_id, number, games_of_seat in stored:
        closed.add(number)
        if (entry_id, number) in counted:
            played[entry_id] += games_of_seat

    def running(prefix: str) -> Q:
        released, done = RoundStatus.RELEASED, RoundStatus.CLOSED
        return Q(**{f"{prefix}round__tournament": tournament}) & (
            Q(**{f"{prefix}round__status": released})
            | Q(**{f"{prefix}round__status": done}) & ~Q(**{f"{prefix}round__number__in": closed})
        )

    seats = Seat.objects.filter(running(""))
    seated: dict[int, list[tuple[int, int]]] = defaultdict(list)  # table -> (position, entry)
    tables: dict[int, tuple[int, int | None]] = {}  # table -> (size, first game after time)
    for entry_id, number, table_id, position, size, limit in seats.values_list(
        "entry_id", "round__number", "table_id", "position", "table__size",
        "table__sheet__time_limit_from",
    ):  # fmt: skip
        if (entry_id, number) in counted:
            seated[table_id].append((position, entry_id))
            tables[table_id] = (size, limit)
    games: dict[int, list[PlayedGame]] = defaultdict(list)
    rows = Game.objects.filter(running("table__"))
    for table_id, kind, soloist in rows.order_by("table_id", "number").values_list(
        "table_id", "kind", "soloist_position"
    ):
        if table_id in tables:
            games[table_id].append(PlayedGame(GameKind(kind).scoring, soloist))
    profile = tournament.profile
    for table_id, (size, limit) in tables.items():
        table_games = games[table_id]
        sat_out = _sitters(profile, size, table_games, limit)
        for position, entry_id in seated[table_id]:
            played[entry_id] += len(table_games) - sat_out[position]
    return dict(played)


def _sitters(
    profile: RuleProfile, size: int, games: list[PlayedGame], limit: int | None
) -> Counter[int]:
    """Position -> the games its player sat out: none at a four-player table; at a
    five-player table the dealer of each game (:func:`scoring.ledger.walk`)."""
    if size != 5 or not games:
        return Counter()
    steps = walk(profile, size, games, time_limit_from=limit)[: len(games)]
    return Counter(step.sitter for step in steps if step.sitter is not None)


def results_rows(standings: Standings) -> Listing:
    """Every player who played, in the order of the standings, in the columns of
    :func:`columns`: the ranked players, then the disqualified ones without a rank."""
    numbers = standings.round_numbers
    listing = Listing(columns(numbers))
    games = games_played(standings)
    for line in standings.lines:
        entry, player = line.entry, line.entry.player
        values: list[Value] = [
            line.rank,
            player.ddv_number or None,
            player.last_name,
            player.first_name or None,
            player.club or None,
            entry.start_number,
            line.rounds_played,
            games.get(entry.pk, 0),
            line.penalties,
            line.total,
            str(entry.status),
        ]
        listing.add(values + [line.rounds.get(n) for n in numbers], entry.status)
    return listing


# --- the files -------------------------------------------------------------------------------


# Where a spreadsheet program may start a cell inside a text field: at its start, and after a
# character that one program or another splits on (a file opened with German settings splits
# on ";" and honours quotes only at the start of a cell, so a quoted "Max;=1" still gives a
# cell "=1"). A formula start there gets a single quote in front.
_CELL_STARTS = re.compile(r"(^|[,;\t\r\n])(?=[=+\-@\t\r])")


def csv_cell(value: Value) -> str:
    """A cell of the CSV file: empty for no value, digits for a number (a minus sign in
    front where negative, no thousands separator), text always in double quotes (a quote
    inside doubled), with a single quote put before every formula start (:data:`FORMULA_START`)
    that begins the text or follows a ``,``, ``;``, tab or line break inside it — so that
    "=HYPERLINK(…)" or "Max;=HYPERLINK(…)" as a name stays text when the file is opened in
    a spreadsheet program, whichever separator it splits on."""
    if value is None:
        return ""
    if isinstance(value, str):
        text = _CELL_STARTS.sub(lambda match: match.group(1) + "'", value)
        return '"' + text.replace('"', '""') + '"'
    return str(value)


def csv_line(values: Iterable[Value]) -> str:
    """One line of the CSV file, each value as :func:`csv_cell` writes it."""
    return ",".join(csv_cell(value) for value in values) + "\r\n"


def results_csv(tournament: Tournament) -> bytes:
    """The results as CSV: UTF-8 with a byte order mark (so that Excel shows umlauts),
    comma-separated, every text field quoted (:func:`csv_cell`), lines ending in CRLF (RFC
    4180), the header row first, then one row per player."""
    listing = results_rows(standings_domain.compute(tournament))
    lines = [csv_line(column.key for column in listing.columns)]
    lines += [csv_line(row.values) for row in listing.rows]
    return "".join(lines).encode("utf-8-sig")


def results_workbook(tournament: Tournament) -> bytes:
    """The results as an Excel workbook. The first sheet is the same table as the CSV file:
    the header row of column keys in row 1, one row per player below, numbers as numbers,
    text as text (never a formula). The second sheet says what the file is (tournament,
    date, venue, rules, final or provisional, time of generation) and what each column
    holds, in the language of the page."""
    standings = standings_domain.compute(tournament)
    listing = results_rows(standings)
    title = _("Results for the federation")
    book = Workbook(write_only=True)
    xlsx.write_sheet(book, _("Results"), listing)
    legend = Listing([Column("column", _("Column")), Column("meaning", _("Meaning"))])
    for key, meaning in meanings(standings.round_numbers):
        legend.add([key, meaning])
    state = standings_state(standings)
    xlsx.write_sheet(book, _("Columns"), legend, head=heading(tournament, title, state))
    book.properties.title = f"{tournament.name} – {title} – {state}"
    out = BytesIO()
    book.save(out)
    return out.getvalue()
