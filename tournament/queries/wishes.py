"""The seat wishes of a tournament as the players page shows them (issue 39, README
"Sitzwünsche"): the never-together groups, the fixed tables, whether team-mates are kept
apart, and the refusal the draw would give in the field as it is, while there is time to act.

Also the one reader of the wishes the draw uses (:func:`wish_rows`, :func:`field_wishes`) and
its refusal in words (:func:`refusal`): the card runs the solver's own check before the search
(``seating.wishes.apart_groups``, pure, no search) on the same wishes, so the card and the
draw cannot disagree. At most five queries (the counts, the groups, their players, the drawn
rounds, the field's wishes), two more for a refusal's names. The verbs are in
:mod:`tournament.domain.wishes`."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field

from django.db.models import BooleanField, Count, ExpressionWrapper, Q, QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .. import seating
from ..models import Entry, EntryStatus, RoundStatus, Tournament
from ..seating.wishes import apart_groups
from ..wording.findings import impossible_wishes_message

Apart = tuple[tuple[int, ...], ...]  # never-together groups: sorted entry ids, sorted
AtTable = tuple[tuple[int, int], ...]  # (entry id, table number), sorted
WishRow = tuple[int, int | None, int | None, int | None]


@dataclass(frozen=True)
class Member:
    entry_id: int
    start_number: int
    name: str
    in_field: bool  # counted for the tables (see SeatWishes.players)

    def __str__(self) -> str:
        return f"{self.name} ({self.start_number})"


@dataclass(frozen=True)
class GroupLine:
    pk: int
    note: str
    members: list[Member]

    @property
    def numbers(self) -> str:
        return ", ".join(str(m.start_number) for m in self.members)


@dataclass(frozen=True)
class FixedLine:
    table: int
    member: Member


@dataclass(frozen=True)
class SeatWishes:
    groups: list[GroupLine]
    fixed: list[FixedLine]
    teams_apart: bool
    # The players the tables are counted for: the checked-in ones once check-in began, else
    # every active entry (the field as registered).
    players: int
    checked_in: bool
    tables: int
    drawn: list[int]  # rounds drawn but not released: drawn before a change, they keep it
    warnings: list[str] = field(default_factory=list)

    @property
    def any(self) -> bool:
        return bool(self.groups or self.fixed or self.teams_apart)


def _tables_words(players: int, tables: int) -> str:
    return ngettext(
        "%(players)s players sit at %(tables)s table",
        "%(players)s players sit at %(tables)s tables",
        tables,
    ) % {"players": players, "tables": tables}


def seat_wishes(tournament: Tournament, counts: Mapping[str, int] | None = None) -> SeatWishes:
    """The card's content: groups in the order they were entered, their members by start
    number; fixed tables by table number; the draw's refusal for the field as it is now (the
    checked-in players once check-in began, else every active entry) as a warning.
    ``counts``: the active and checked-in entries when the caller counted them already (the
    players page)."""
    if counts is None:
        counts = tournament.entries.aggregate(
            active=Count("pk", filter=Q(status=EntryStatus.ACTIVE)),
            checked_in=Count("pk", filter=Q(status=EntryStatus.ACTIVE, checked_in=True)),
        )
    checked_in = counts["checked_in"] > 0
    size = counts["checked_in"] if checked_in else counts["active"]
    tables = size // 4
    in_field = Q(status=EntryStatus.ACTIVE) & (Q(checked_in=True) if checked_in else Q())
    groups = {g.pk: GroupLine(g.pk, g.note, []) for g in tournament.apart_groups.order_by("pk")}
    fixed: list[FixedLine] = []
    rows = (
        tournament.entries.filter(Q(apart_group__isnull=False) | Q(fixed_table__isnull=False))
        .annotate(counted=ExpressionWrapper(in_field, output_field=BooleanField()))
        .order_by("start_number")
        .values_list(
            "pk",
            "start_number",
            "player__first_name",
            "player__last_name",
            "counted",
            "apart_group_id",
            "fixed_table",
        )
    )
    for pk, number, first, last, counted, group, table in rows:
        member = Member(pk, number, f"{first} {last}".strip(), bool(counted))
        if group in groups:
            groups[group].members.append(member)
        if table is not None:
            fixed.append(FixedLine(table, member))
    fixed.sort(key=lambda line: line.table)
    drawn = (
        list(
            tournament.rounds.filter(status=RoundStatus.DRAWN)
            .order_by("number")
            .values_list("number", flat=True)
        )
        if groups or fixed or tournament.teams_apart
        else []
    )
    wishes = SeatWishes(
        groups=list(groups.values()),
        fixed=fixed,
        teams_apart=tournament.teams_apart,
        players=size,
        checked_in=checked_in,
        tables=tables,
        drawn=drawn,
    )
    if wishes.any:
        field_rows = wish_rows(tournament.entries.filter(in_field).order_by("start_number"))
        refused = draw_refusal(field_rows, tournament.teams_apart)
        if refused:
            wishes.warnings.append(
                _("%(field)s: the draw would refuse. %(refusal)s")
                % {"field": _tables_words(size, tables), "refusal": refused}
            )
    return wishes


def wish_rows(entries: QuerySet[Entry]) -> list[WishRow]:
    """(entry id, never-together group id, team id, fixed table) of ``entries``."""
    return list(entries.values_list("pk", "apart_group_id", "team_id", "fixed_table"))


def _grouped(rows: list[WishRow], teams_apart: bool) -> dict[tuple[str, int], list[int]]:
    """The entry ids of ``rows`` per never-together group ("group", id) and, when
    ``teams_apart``, per team ("team", id)."""
    groups: dict[tuple[str, int], list[int]] = {}
    for entry_id, group, team, _table in rows:
        if group is not None:
            groups.setdefault(("group", group), []).append(entry_id)
        if teams_apart and team is not None:
            groups.setdefault(("team", team), []).append(entry_id)
    return groups


def field_wishes(rows: list[WishRow], teams_apart: bool) -> tuple[Apart, AtTable]:
    """The seat wishes among the players of ``rows`` (see :func:`wish_rows`): the
    never-together groups as sorted tuples of entry ids (every team too when
    ``teams_apart``; groups with fewer than two of these players dropped, the same group
    once), sorted; and the fixed tables as sorted (entry id, table number) pairs. No hash
    order: equal rows give equal wishes, so equal snapshots still mean the same plan."""
    groups = _grouped(rows, teams_apart)
    apart = sorted({tuple(sorted(m)) for m in groups.values() if len(m) > 1})
    at_table = sorted((entry_id, table) for entry_id, _g, _t, table in rows if table is not None)
    return tuple(apart), tuple(at_table)


def wish_counts(rows: list[WishRow], teams_apart: bool) -> tuple[int, int, int]:
    """What the director asked of the field ``rows``, as the round page names it: the
    never-together groups entered with at least two of these players, the players in them,
    and the teams kept apart with at least two of them (0 unless ``teams_apart``)."""
    groups = _grouped(rows, teams_apart)
    entered = [len(m) for (kind, _id), m in groups.items() if kind == "group" and len(m) > 1]
    teams = sum(1 for (kind, _id), m in groups.items() if kind == "team" and len(m) > 1)
    return len(entered), sum(entered), teams


def draw_refusal(rows: list[WishRow], teams_apart: bool) -> str | None:
    """What the draw would say, refusing the seat wishes of the field ``rows`` (its players
    by start number, see :func:`wish_rows`), or None when they fit (or the field cannot be
    seated at all: the draw says that itself). The solver's own check before the search."""
    apart, at_table = field_wishes(rows, teams_apart)
    players = [row[0] for row in rows]
    try:
        sizes = seating.table_sizes(len(players))
        # the solver's players are any hashable values: here the entry ids, by start number
        index: dict[Hashable, int] = {p: i for i, p in enumerate(players)}
        fixed: dict[Hashable, int] = dict(at_table)
        apart_groups(players, index, sizes, [frozenset(g) for g in apart], fixed)
    except seating.ImpossibleField:
        return None
    except seating.ImpossibleWishes as exc:
        return refusal(exc, at_table, teams_apart, players)
    return None


def entry_label(entry: Entry) -> str:
    """An entry as the draw's messages name it: "12 Anna Schäfer"."""
    return f"{entry.start_number} {entry.player}"


def refusal(
    exc: seating.ImpossibleWishes, at_table: AtTable, teams_apart: bool, field: Sequence[int]
) -> str:
    """Why the solver refused the wishes, naming the players concerned (with their fixed
    tables where those are the reason): a sentence for each wish that cannot hold, so that
    the director mends them all at once; ``field`` is the players' entry ids."""
    return " ".join(_refused(one, at_table, teams_apart, field) for one in exc.all)


def _refused(
    exc: seating.ImpossibleWishes, at_table: AtTable, teams_apart: bool, field: Sequence[int]
) -> str:
    """One wish of a refusal (see :func:`refusal`)."""
    entries = Entry.objects.filter(pk__in=list(exc.players)).select_related("player", "team")
    concerned = sorted(entries, key=lambda e: e.start_number)
    tables = dict(at_table) if exc.reason in ("table_missing", "same_table") else {}
    labels = []
    for entry in concerned:
        label = entry_label(entry)
        if entry.pk in tables:
            label += " (" + _("table %(number)s") % {"number": tables[entry.pk]} + ")"
        labels.append(label)
    # A team kept apart is named as the team (the director may turn that off), not as a
    # never-together group that happens to hold team-mates.
    name = None
    team = concerned[0].team if concerned else None
    if exc.reason == "group_too_large" and teams_apart and team is not None:
        mates = Entry.objects.filter(pk__in=list(field), team=team)
        if set(mates.values_list("pk", flat=True)) == {e.pk for e in concerned}:
            name = team.name
    return impossible_wishes_message(exc.reason, labels, exc.tables, team=name)
