"""Importing a player list (CSV or XLSX) into a tournament: parse -> preview -> apply.

Parsing never writes. It returns a preview with every row matched against the player
database and every bad line with its number and reason. Only an error-free preview can be
applied, and applying happens in one short transaction: a file either goes in whole or not at
all (see :func:`apply_import`).
"""

import re
import unicodedata
from dataclasses import asdict, dataclass, field

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from ..base.versions import mark_changed
from ..errors import DomainError
from ..imports.tabular import ImportFileError, read_table
from ..models import Entry, Player, Team, Tournament
from ..models.audit import role_of
from ..models.locks import lock_tournament
from ..models.names import club_key, has_control_characters, name_key
from ..queries.players import (
    KnownPlayers,
    PlayerData,
    ddv_number_conflict,
    find_player,
    known_tournaments,
)
from . import bulk
from .entries import already_registered_error, conflict_error, number_taken_error

MAX_START_NUMBER = 99999
# Players per file: a large field fits, and a file cannot probe the shared player database
# line by line by the thousand.
MAX_IMPORT_LINES = 1000

# Header spellings (lower case, letters and digits only) -> field.
COLUMN_ALIASES = {
    "vorname": "first_name",
    "firstname": "first_name",
    "first": "first_name",
    "nachname": "last_name",
    "familienname": "last_name",
    "lastname": "last_name",
    "surname": "last_name",
    "name": "name",
    "spieler": "name",
    "player": "name",
    "verein": "club",
    "club": "club",
    "ddv": "ddv_number",
    "ddvnr": "ddv_number",
    "ddvnummer": "ddv_number",
    "ddvmitgliedsnummer": "ddv_number",
    "mitgliedsnummer": "ddv_number",
    "membernumber": "ddv_number",
    "ddvnumber": "ddv_number",
    "team": "team",
    "mannschaft": "team",
    "startnummer": "start_number",
    "startnr": "start_number",
    "nr": "start_number",
    "startnumber": "start_number",
    # The consent to be named on the public pages (README, "Datenschutz / privacy").
    "veröffentlichen": "publish",
    "veroeffentlichen": "publish",
    "veröffentlichung": "publish",
    "einwilligung": "publish",
    "publish": "publish",
    "consent": "publish",
}
# A consent cell's answers (case-folded); an empty cell leaves it to the director.
CONSENT_ANSWERS = {
    "ja": True, "j": True, "x": True, "1": True, "yes": True, "y": True, "true": True,
    "nein": False, "n": False, "0": False, "no": False, "false": False, "-": False,
}  # fmt: skip
MAX_LENGTHS = {"first_name": 100, "last_name": 100, "club": 150, "ddv_number": 20, "team": 150}


@dataclass
class ImportRow:
    line: int
    first_name: str
    last_name: str
    club: str = ""
    ddv_number: str = ""
    team: str = ""
    start_number: int | None = None
    player_id: int | None = None
    already_registered: bool = False
    # Consent to be named on the public pages (README, "Datenschutz / privacy"): the file's
    # column; None where the file says nothing (the director answers for those at confirm).
    publish: bool | None = False

    @property
    def data(self) -> PlayerData:
        return PlayerData(self.first_name, self.last_name, self.club, self.ddv_number)


@dataclass
class LineError:
    line: int
    message: str


@dataclass
class ImportPreview:
    rows: list[ImportRow] = field(default_factory=list)
    errors: list[LineError] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors and any(not r.already_registered for r in self.rows)

    @property
    def new_players(self) -> int:
        return sum(1 for r in self.rows if r.player_id is None)

    @property
    def publish_unknown(self) -> int:
        """Players to register whose consent the file does not give."""
        return sum(1 for r in self.rows if r.publish is None and not r.already_registered)

    @property
    def to_register(self) -> int:
        return sum(1 for r in self.rows if not r.already_registered)

    def to_json(self) -> list[dict]:
        return [asdict(r) for r in self.rows]

    @classmethod
    def rows_from_json(cls, data: list[dict]) -> list[ImportRow]:
        return [ImportRow(**item) for item in data]


def _header_key(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).casefold()
    return re.sub(r"[^0-9a-zäöüß]", "", text)


def _map_header(cells: list[str]) -> dict[str, int]:
    columns: dict[str, int] = {}
    for index, cell in enumerate(cells):
        name = COLUMN_ALIASES.get(_header_key(cell))
        if name and name not in columns:
            columns[name] = index
    if "last_name" not in columns and "name" not in columns:
        raise ImportFileError(
            _(
                "The first line must name the columns, at least “last name” (or “name”); "
                "also understood: first name, club, DDV number, team, start number."
            )
        )
    return columns


def _split_name(full: str) -> tuple[str, str]:
    """ "Müller, Anna" or "Anna Müller" -> ("Anna", "Müller")."""
    if "," in full:
        last, first = full.split(",", 1)
        return first.strip(), last.strip()
    parts = full.rsplit(None, 1)
    if len(parts) == 1:
        return "", parts[0]
    return parts[0], parts[1]


def _row_from_cells(line: int, cells: list[str], columns: dict[str, int]) -> ImportRow | str:
    """An ImportRow, or the reason why the line is bad."""

    def cell(name: str) -> str:
        index = columns.get(name)
        return cells[index].strip() if index is not None and index < len(cells) else ""

    first, last = cell("first_name"), cell("last_name")
    if "last_name" not in columns:
        first, last = _split_name(cell("name"))
        if "first_name" in columns:
            first = cell("first_name") or first
    values = {
        "first_name": " ".join(first.split()),
        "last_name": " ".join(last.split()),
        "club": " ".join(cell("club").split()),
        "ddv_number": cell("ddv_number"),
        "team": " ".join(cell("team").split()),
    }
    if not values["last_name"]:
        return _("the last name is missing")
    labels = {
        "first_name": _("first name"),
        "last_name": _("last name"),
        "club": _("club"),
        "ddv_number": _("DDV member number"),
        "team": _("team"),
    }
    for name, value in values.items():
        if has_control_characters(value):
            return _("%(field)s contains control characters") % {"field": labels[name]}
        if len(value) > MAX_LENGTHS[name]:
            return _("%(field)s is longer than %(max)s characters") % {
                "field": labels[name],
                "max": MAX_LENGTHS[name],
            }
    start_text = cell("start_number")
    start_number = None
    if start_text:
        if not start_text.isdecimal() or not 1 <= int(start_text) <= MAX_START_NUMBER:
            return _("start number “%(value)s” is not a whole number from 1 to %(max)s") % {
                "value": start_text[:20],
                "max": MAX_START_NUMBER,
            }
        start_number = int(start_text)
    answer = cell("publish").casefold()
    if answer and answer not in CONSENT_ANSWERS:
        return _("consent “%(value)s” is neither yes nor no (ja/nein, x or empty)") % {
            "value": answer[:20]
        }
    return ImportRow(
        line=line,
        first_name=values["first_name"],
        last_name=values["last_name"],
        club=values["club"],
        ddv_number=values["ddv_number"],
        team=values["team"],
        start_number=start_number,
        publish=CONSENT_ANSWERS.get(answer),
    )


def parse_player_file(
    tournament: Tournament, filename: str, content: bytes, *, director=None
) -> ImportPreview:
    """Read ``content`` and match every row against the players ``director`` knows (see
    :func:`~.registration.find_player`); writes nothing.

    Raises :class:`ImportFileError` when the file as a whole is unusable (empty, too large,
    damaged, no header); problems of single lines are collected in the preview.
    """
    # The header, MAX_IMPORT_LINES players and one more to tell that there are too many:
    # the rest of a longer file is not read.
    rows = read_table(filename, content, max_rows=MAX_IMPORT_LINES + 2)
    table = [(line, cells) for line, cells in rows if any(cells)]
    if not table:
        raise ImportFileError(_("The file is empty."))
    columns = _map_header(table[0][1])
    if len(table) == 1:
        raise ImportFileError(_("The file contains no players, only the header line."))
    if len(table) - 1 > MAX_IMPORT_LINES:
        raise ImportFileError(
            _(
                "The file has more than %(max)s lines of players; at most %(max)s can be "
                "imported at a time. Please split the list. Nothing was imported."
            )
            % {"max": MAX_IMPORT_LINES}
        )

    preview = ImportPreview()
    # Read once for the whole file: a line is matched in memory, not with a query.
    known = KnownPlayers(known_tournaments(director, tournament), tournament)
    taken = dict(tournament.entries.values_list("start_number", "player_id"))
    seen_people: dict[tuple[str, str], int] = {}
    seen_ddv: dict[str, int] = {}
    seen_numbers: dict[int, int] = {}
    for line, cells in table[1:]:
        row = _row_from_cells(line, cells, columns)
        if isinstance(row, str):
            preview.errors.append(LineError(line, row))
            continue
        error = _check_row(row, known, taken, seen_people, seen_ddv, seen_numbers)
        if error:
            preview.errors.append(LineError(line, error))
        else:
            preview.rows.append(row)
    return preview


def _check_row(row, known, taken, seen_people, seen_ddv, seen_numbers) -> str | None:
    person = (row.data.name_key, club_key(row.club))
    if person in seen_people:
        return _("the same player as in line %(line)s") % {"line": seen_people[person]}
    if row.ddv_number and row.ddv_number in seen_ddv:
        return _("DDV member number as in line %(line)s") % {"line": seen_ddv[row.ddv_number]}
    if row.start_number is not None and row.start_number in seen_numbers:
        return _("start number %(number)s as in line %(line)s") % {
            "number": row.start_number,
            "line": seen_numbers[row.start_number],
        }
    seen_people[person] = row.line
    if row.ddv_number:
        seen_ddv[row.ddv_number] = row.line
    if row.start_number is not None:
        seen_numbers[row.start_number] = row.line

    player = find_player(row.data, known)
    if ddv_number_conflict(row.data, player):
        # The player database is shared: the holder's name is another tournament's data.
        return _("DDV member number %(number)s belongs to a player with another name") % {
            "number": row.ddv_number
        }
    if player is not None:
        row.player_id = player.pk
        row.already_registered = player.pk in taken.values()
    if row.start_number is not None and not row.already_registered and row.start_number in taken:
        return _("start number %(number)s is already taken in this tournament") % {
            "number": row.start_number
        }
    return None


def shown_players(rows: list[ImportRow], tournaments) -> dict[int, Player]:
    """The matched players whose stored name and club the preview may show: those with an
    entry in one of ``tournaments`` (the director's own). The only other match is a player
    whose DDV member number and name the line gives: it is reported as a known player without
    what else is stored, since the player database is shared by all tournaments."""
    ids = {r.player_id for r in rows if r.player_id}
    own = Player.objects.filter(pk__in=ids, entries__tournament__in=tournaments).distinct()
    return {player.pk: player for player in own}


# How often a confirm prepares again when another write changed what it was prepared from.
ATTEMPTS = 5


@dataclass
class Plan:
    """Registrations ready to write (an import, those moving up from a waiting list):
    computed outside the transaction from ``state``."""

    state: tuple
    last_entry: int | None  # the newest entry of the known tournaments when prepared
    new_players: list[Player]  # unsaved, in line order
    entries: list[tuple[Player, int, str]]  # (player, start number, team name)
    new_teams: list[str]
    publish: list[bool] = field(default_factory=list)  # per entry: the consent


def _state(tournament: Tournament, known, ddv_numbers: list[str], last: int | None) -> tuple:
    """What a plan depends on, as plain values: the tournament's entries and teams, how many
    entries of the tournaments whose players may be linked there are up to entry ``last``
    (a deletion changes it), the holders of the file's member numbers. Cheap enough to read
    again inside the write transaction."""
    entries = tuple(
        tournament.entries.order_by("start_number").values_list("start_number", "player_id")
    )
    teams = tuple(tournament.teams.order_by("name").values_list("name", flat=True))
    linked = Entry.objects.filter(tournament__in=known, pk__lte=last or 0).count()
    holders = tuple(
        Player.objects.filter(ddv_number__in=ddv_numbers)
        .order_by("ddv_number")
        .values_list("ddv_number", "pk", "first_name", "last_name")
    )
    return entries, teams, linked, holders


def unchanged(tournament: Tournament, plan: "Plan", known, rows: list[ImportRow]) -> bool:
    """Whether the plan still holds: the same state, and no player entered meanwhile in the
    director's tournaments whose name is one of the file's (the import would have linked
    them). Other directors' imports running at the same time do not make it prepare again."""
    ddv_numbers = sorted({r.ddv_number for r in rows if r.ddv_number})
    if _state(tournament, known, ddv_numbers, plan.last_entry) != plan.state:
        return False
    names = {r.data.name_key for r in rows}
    new = Entry.objects.filter(tournament__in=known, pk__gt=plan.last_entry or 0)
    return not new.filter(player__name_key__in=names).exists()


def prepare(
    tournament: Tournament,
    ordered: list[ImportRow],
    known_qs,
    *,
    partial: bool = False,
    online: bool = False,
) -> Plan:
    """Match (with the players of ``known_qs``, see :func:`~.registration.find_player`) and
    number every row as :func:`~.registration.register` would, one after the other, without
    writing: a DomainError names the first line that cannot be registered — or, ``partial``,
    the plan covers the rows before it (``len(plan.entries)``). ``online``: the rows are
    online registrations, matched to nobody (``register(unverified=True)``); a row with a
    namesake in the tournament is where the plan stops."""
    ddv_numbers = sorted({r.ddv_number for r in ordered if r.ddv_number})
    last_entry = Entry.objects.filter(tournament__in=known_qs).aggregate(last=Max("pk"))["last"]
    state = _state(tournament, known_qs, ddv_numbers, last_entry)
    holders = {p.ddv_number: p for p in Player.objects.filter(ddv_number__in=ddv_numbers)}
    known = KnownPlayers(known_qs, tournament, keys=[r.data.name_key for r in ordered])
    namesakes = (
        set(tournament.entries.values_list("player__name_key", flat=True)) if online else set()
    )
    registered = {player_id: number for number, player_id in state[0]}
    taken = set(registered.values())
    highest = max(taken, default=0)
    plan = Plan(state, last_entry, [], [], [])
    teams = set(state[1])
    for row in ordered:
        try:
            if online and row.data.name_key in namesakes:
                raise DomainError(_("the same name as a player of this tournament"))
            player = None if online else find_player(row.data, known, holders)
            if ddv_number_conflict(row.data, player):
                raise conflict_error(row.data)
            if player is not None and player.pk is None:  # a new player of an earlier line
                number = next(n for p, n, _team in plan.entries if p is player)
                raise already_registered_error(player, number)
            if player is not None and player.pk in registered:
                raise already_registered_error(player, registered[player.pk])
            number = row.start_number
            if number is not None and number in taken:
                raise number_taken_error(number)
        except DomainError as exc:
            if partial:
                return plan
            raise DomainError(
                _("Line %(line)s: %(reason)s") % {"line": row.line, "reason": exc.message}
            ) from None
        if number is None:
            number = highest + 1
        taken.add(number)
        highest = max(highest, number)
        if player is None:
            player = Player(
                first_name=row.first_name,
                last_name=row.last_name,
                club=row.club,
                ddv_number="" if online else row.ddv_number,
                unverified=online,
            )
            if online:
                namesakes.add(row.data.name_key)
            player.name_key = name_key(player.first_name, player.last_name)
            plan.new_players.append(player)
            known.add(player)
        team = row.team.strip()
        if team and team not in teams:
            teams.add(team)
            plan.new_teams.append(team)
        plan.entries.append((player, number, team))
        plan.publish.append(bool(row.publish))
    return plan


def write(tournament: Tournament, plan: Plan, user, role: str = "") -> None:
    """Write prepared registrations in bulk (players, teams, entries and their history, by
    ``user`` in ``role``, see :func:`~.audit.stamp`). Runs in the transaction that found the
    state unchanged."""
    role = role or role_of(user)
    now = timezone.now()
    # bulk_create gives the new players their ids (SQLite and PostgreSQL return them).
    for player in plan.new_players:
        player.created_at = now
    Player.objects.bulk_create(plan.new_players, batch_size=500)
    # The history from what was written, not read back (each field not given has its
    # default, in the history as in the row).
    fields = (
        "id",
        *("first_name", "last_name", "club", "ddv_number", "name_key", "unverified", "uid"),
        "created_at",
    )
    players = [{name: getattr(p, name) for name in fields} for p in plan.new_players]
    bulk.history(Player, players, "+", user, role)
    if plan.new_teams:
        teams = [{"name": name} for name in plan.new_teams]
        bulk.insert(Team, teams, {"tournament_id": tournament.pk})
        teams_made = tournament.teams.filter(name__in=plan.new_teams).values()
        bulk.history(Team, teams_made, "+", user, role)
    team_ids = dict(tournament.teams.values_list("name", "pk"))
    bulk.insert(
        Entry,
        [
            {
                "player_id": player.pk,
                "start_number": number,
                "team_id": team_ids.get(team),
                "publish": publish,
            }
            for (player, number, team), publish in zip(plan.entries, plan.publish, strict=True)
        ],
        {"tournament_id": tournament.pk, "created_at": now},
    )
    ids = dict(tournament.entries.values_list("start_number", "pk"))
    entries = [
        {
            "id": ids[number],
            "tournament_id": tournament.pk,
            "player_id": player.pk,
            "start_number": number,
            "team_id": team_ids.get(team),
            "publish": publish,
        }
        for (player, number, team), publish in zip(plan.entries, plan.publish, strict=True)
    ]
    bulk.history(Entry, entries, "+", user, role)
    mark_changed(tournament, results=True)  # the rows above were written without signals


def apply_import(
    tournament: Tournament, rows: list[ImportRow], *, director=None, publish: bool = False
) -> int:
    """Register every row of a confirmed preview for ``director``, all or nothing. Returns how
    many entries were created. Explicit start numbers go first so that automatic ones cannot
    take them.

    As the draw does: every row is matched and numbered outside any transaction, then one
    short transaction checks that nothing the plan was made from changed meanwhile and writes
    it in bulk. When something did change (another import into this tournament, a player of
    the same name entered elsewhere by this director), the plan is made again; after
    :data:`ATTEMPTS` tries it is made under the lock, so that a confirm always finishes.
    ``publish``: the director's answer for the rows whose consent the file does not give."""
    for row in rows:
        if row.publish is None:
            row.publish = publish
    ordered = sorted(
        (r for r in rows if not r.already_registered),
        key=lambda r: (r.start_number is None, r.start_number or 0, r.line),
    )
    known_qs = known_tournaments(director, tournament)
    for attempt in range(ATTEMPTS + 1):
        plan = None if attempt == ATTEMPTS else prepare(tournament, ordered, known_qs)
        try:
            with transaction.atomic():
                lock_tournament(tournament.pk)
                if plan is None:
                    # Changed under the plan again and again: prepared under the lock, once.
                    plan = prepare(tournament, ordered, known_qs)
                elif not unchanged(tournament, plan, known_qs, ordered):
                    continue
                write(tournament, plan, director)
                return len(ordered)
        except IntegrityError:
            # A row written meanwhile that the state does not show (the same member number
            # for another tournament's new player): nothing was written; prepare again.
            continue
    raise DomainError(
        _(
            "Other players were saved with the same data while the list was being imported. "
            "Nothing was imported: please confirm again."
        )
    )
