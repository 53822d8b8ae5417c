"""The statistics of a tournament or a series: the games that count, read as plain records
for :mod:`scoring.statistics`, and the names the pages show.

What counts is what the standings count (a tournament: its closed rounds and confirmed
sheets, or every game when its standings are live) and what a series counts (the closed
rounds of its tournaments). Players are named by their player id, so that a series adds up
one player's games across its tournaments. Figures are kept apart by rule profile: each
tournament's games carry its profile (a custom one by its parameters, see ``profile_key``).

Five queries whatever the size: the tournaments, the tables, the seats, the games and the
penalty rows.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field
from functools import partial

from django.conf import settings
from django.db.models import Q
from django.utils.translation import get_language

from scoring.game import facts_of_row
from scoring.kinds import Kind
from scoring.ledger import PlayedGame, walk
from scoring.statistics import GameRecord, GameRef, PenaltyRecord, Statistics, compute

from ..base.caching import cached
from ..models import (
    Entry,
    Game,
    GameKind,
    Penalty,
    RoundStatus,
    Seat,
    Series,
    Table,
    Tournament,
    pseudonym,
)
from ..models.penalty import points_of
from ..models.tournament import PROFILE_LABELS
from .standings import counted_tables, hidden_from, public_rounds


def profile_key(tournament: Tournament) -> Hashable:
    """What keeps figures apart: the rule profile in force (a custom one by its parameters,
    so that two custom profiles alike count together)."""
    return tournament.profile


@dataclass(frozen=True)
class Person:
    """How a player is named: ``name`` on the director's pages, ``public`` on the public ones
    (the pseudonym without consent), ``number`` the start number (a tournament's pages)."""

    name: str
    public: str
    publish: bool
    number: int


@dataclass
class Figures:
    """The statistics of a tournament or a series, per profile, with what names them."""

    by_profile: dict[Hashable, Statistics]
    labels: dict[Hashable, str]  # each profile's name
    tournaments: dict[int, Tournament]
    # player id -> their name per tournament (the consent is given per tournament)
    people: dict[int, dict[int, Person]] = field(default_factory=dict)

    def person(self, player: int, tournament: int | None = None) -> Person | None:
        named = self.people.get(player, {})
        if tournament is not None:
            return named.get(tournament)
        return next(iter(named.values()), None)

    def published(self, player: int) -> bool:
        """Named on the public pages: consent in every tournament counted here (a consent
        for one tournament never publishes another)."""
        named = self.people.get(player, {})
        return bool(named) and all(p.publish for p in named.values())

    def public_name(self, player: int) -> str:
        named = self.people.get(player, {})
        if self.published(player):
            return next(iter(named.values())).name
        if len(self.tournaments) == 1 and named:
            return next(iter(named.values())).public
        return pseudonym(player)  # the series' pseudonym: the player's number

    def of_player(self, player: int) -> list[tuple[Hashable, Statistics]]:
        """The profiles in which ``player`` has figures, in the order of the tournaments."""
        return [(k, s) for k, s in self.by_profile.items() if player in s.players]


def _label(tournament: Tournament) -> str:
    label = str(PROFILE_LABELS.get(tournament.rule_profile, tournament.rule_profile))
    if tournament.custom_base:
        label += f" ({PROFILE_LABELS.get(tournament.custom_base, tournament.custom_base)})"
    return label


def cells(game: Game) -> list[int | None]:
    return [game.p1, game.p2, game.p3, game.p4, game.p5]


def read(tournaments: Iterable[Tournament], tables: Q) -> Figures:
    """The figures of the ``tables`` (a condition on Table) of ``tournaments``."""
    by_pk = {t.pk: t for t in tournaments}
    rows = list(
        Table.objects.filter(tables, round__tournament_id__in=by_pk)
        .order_by("round__tournament_id", "round__number", "number")
        .values_list(
            "pk",
            "round__tournament_id",
            "round__number",
            "number",
            "size",
            "sheet__time_limit_from",
        )
    )
    table_of = {row[0]: row for row in rows}
    seated: dict[int, dict[int, int]] = defaultdict(dict)  # table -> position -> player id
    people: dict[int, dict[int, Person]] = defaultdict(dict)
    seats = Seat.objects.filter(table_id__in=table_of).values_list(
        "table_id",
        "position",
        "entry__player_id",
        "entry__tournament_id",
        "entry__start_number",
        "entry__publish",
        "entry__player__first_name",
        "entry__player__last_name",
    )
    for table_id, position, player, tournament, number, publish, first, last in seats:
        seated[table_id][position] = player
        name = f"{first} {last}".strip()
        public = name if publish else pseudonym(number)
        people[player][tournament] = Person(name, public, publish, number)
    # Plain rows, no model instances: a series of many tournaments reads tens of thousands.
    games: dict[int, list[tuple]] = defaultdict(list)
    positions = ("p1", "p2", "p3", "p4", "p5")
    columns = ("table_id", "number", "facts", "kind", "soloist_position", *positions)
    for row in Game.objects.filter(table_id__in=table_of).order_by("number").values_list(*columns):
        games[row[0]].append(row[1:])
    records: list[GameRecord] = []
    for table_id, tournament, round_number, number, size, limit in rows:
        owner = by_pk[tournament]
        profile = profile_key(owner)
        rows_of = games[table_id]
        played = [PlayedGame(GameKind(row[2]).scoring, row[3]) for row in rows_of]
        steps = walk(owner.profile, size, played, time_limit_from=limit) if size == 5 else []
        players = tuple(seated[table_id].get(p) for p in range(1, size + 1))
        for index, (game_number, facts, kind, soloist, *points) in enumerate(rows_of):
            row = tuple(v or 0 for v in points[:size])
            sitter = steps[index].sitter if steps else None
            records.append(
                GameRecord(
                    ref=GameRef(tournament, round_number, number, game_number),
                    profile=profile,
                    kind=GameKind(kind).scoring,
                    soloist=soloist,
                    players=players,
                    points=row,
                    sitter=sitter,
                    # Read again: only facts that give this very row (and its sitter) count.
                    facts=facts_of_row(
                        owner.profile,
                        facts,
                        solo=GameKind(kind).scoring.is_solo,
                        soloist=soloist,
                        points=row,
                        sitter=sitter,
                    ),
                )
            )
    penalties: list[PenaltyRecord] = []
    for penalty in Penalty.objects.counting().filter(table_id__in=table_of):
        _pk, tournament, round_number, number, _size, _limit = table_of[penalty.table_id]
        ref = GameRef(tournament, round_number, number, penalty.game_number)
        for position, value in enumerate(points_of(penalty), start=1):
            fined = seated[penalty.table_id].get(position)
            if value and fined is not None:
                penalties.append(PenaltyRecord(ref, profile_key(by_pk[tournament]), fined, value))
    by_profile = compute(records, penalties)
    labels = {profile_key(t): _label(t) for t in by_pk.values()}
    return Figures(by_profile, labels, by_pk, dict(people))


def of_tournament(tournament: Tournament, *, public: bool = False) -> Figures:
    """What the tournament's standings count (see the module's docstring); ``public``: what
    its public standings count, without the rounds the director hides (issue 38)."""
    tables = counted_tables(tournament)
    if public:
        tables &= public_rounds("round__")
    return read([tournament], tables)


def state(tournament: Tournament) -> tuple[Hashable, float]:
    """What a tournament's figures depend on, and for how many seconds an older state may
    still be shown: with live standings every saved game (its version, with the standings'
    allowance while games come in); otherwise only what confirming a sheet or closing a round
    moves (its results version: the keepers' saves leave it alone)."""
    if tournament.standings_live:
        return ("live", tournament.version), settings.STANDINGS_CACHE_SECONDS
    return ("results", tournament.results_version), 0


def figures(tournament: Tournament, *, public: bool = False) -> Figures:
    """:func:`of_tournament`, computed once per :func:`state` (and language: the labels);
    the public figures apart from the office's while the director hides rounds (otherwise
    they are the same figures, computed once for both)."""
    current, stale = state(tournament)
    hiding = public and hidden_from(tournament) is not None
    family = ("statistics", tournament.pk, get_language(), hiding)
    compute = partial(of_tournament, tournament, public=hiding)
    return cached(family, current, compute, stale, share=False)


def of_series(series: Series, *, public_only: bool) -> Figures:
    """The closed rounds of the tournaments the series counts (``public_only`` as for the
    series' table)."""
    members = list(series.counted_tournaments(public_only=public_only).order_by("date", "pk"))
    closed = Q(round__status=RoundStatus.CLOSED)
    if public_only:  # a tournament's hidden rounds count on the series directors' page only
        closed &= public_rounds("round__")
    return read(members, closed)


def entry_player(tournament: Tournament, number: int) -> Entry | None:
    """The entry with start number ``number``, for a player's page."""
    return (
        Entry.objects.filter(tournament=tournament, start_number=number)
        .select_related("player")
        .first()
    )


KIND_ORDER = (
    Kind.PFLICHTSOLO,
    Kind.VORGEFUEHRT,
    Kind.LUSTSOLO,
    Kind.HOCHZEIT,
    Kind.STILLE_HOCHZEIT,
)
