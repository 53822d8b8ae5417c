"""The seat wishes of a tournament as the players page shows them (issue 39, README
"Sitzwünsche"): the never-together groups, the fixed tables, whether team-mates are kept
apart, and the warnings a director should see before drawing: a group or team larger than
the tables of the field, a fixed table beyond them. The draw refuses those (its check is
exact, ``seating``); this says so while there is time to act. At most five queries (the
counts, the groups, their players, the drawn rounds, the teams when kept apart), whatever the
size. The verbs are in :mod:`tournament.domain.wishes`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from django.db.models import BooleanField, Count, ExpressionWrapper, Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..models import EntryStatus, RoundStatus, Tournament


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
    number; fixed tables by table number; the warnings for the field as it is now.
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
    if tables:
        wishes.warnings.extend(_warnings(tournament, wishes, in_field))
    return wishes


def _warnings(tournament: Tournament, wishes: SeatWishes, in_field: Q) -> list[str]:
    """What the draw would refuse in the field as it is now."""
    out = []
    tables = wishes.tables
    words = {"field": _tables_words(wishes.players, tables)}
    for group in wishes.groups:
        counted = sum(m.in_field for m in group.members)
        if counted > tables:
            out.append(
                _(
                    "Never at one table %(numbers)s: %(count)s of them play, but %(field)s. "
                    "The draw refuses until the field has as many tables as the group has "
                    "players."
                )
                % {"numbers": group.numbers, "count": counted, **words}
            )
    for line in wishes.fixed:
        if line.member.in_field and line.table > tables:
            out.append(
                _("Fixed table %(table)s of %(player)s: %(field)s. The draw refuses it.")
                % {"table": line.table, "player": line.member, **words}
            )
    if wishes.teams_apart:
        teams = (
            tournament.entries.filter(in_field, team__isnull=False)
            .values("team__name")
            .annotate(players=Count("pk"))
            .filter(players__gt=tables)
            .order_by("team__name")
        )
        for team in teams:
            out.append(
                _(
                    "Team %(team)s: %(count)s players, but %(field)s. Team-mates cannot all "
                    "be kept apart: the draw refuses."
                )
                % {"team": team["team__name"], "count": team["players"], **words}
            )
    return out
