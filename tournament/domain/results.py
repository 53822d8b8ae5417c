"""Stored results: each entry's result in each closed round (:class:`RoundResult`), written
once by the verb that closes the round and written anew by every verb that corrects the
closed round — a row of its Spielliste, a penalty, an edit in the admin. The standings, the
series and the federation export read these rows; only the running round is summed from its
games. :func:`differences` (``manage.py checkresults``) recomputes everything from the games.

Computing reads the seats, the games, the counting penalties and the sheets' time limits of
the tables in question, four queries whatever their number, and adds them up with
:func:`scoring.results.table_results`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import asdict, dataclass

from django.db.models import Q
from django.utils.translation import gettext as _

from scoring.ledger import PlayedGame
from scoring.results import SeatResult, TableGame, table_results

from ..base.versions import mark_changed
from ..models import (
    Game,
    GameKind,
    Penalty,
    Round,
    RoundResult,
    RoundStatus,
    Seat,
    Table,
    Tournament,
)

FIELDS = ("points", "penalties", "games", "pflichtsoli", "pflichtsoli_missing")
POINTS = ("p1", "p2", "p3", "p4", "p5")


def compute(tables: Q) -> list[RoundResult]:
    """The results (not saved) of every seat at ``tables``, a condition on "table__…" of
    seats, games and penalties."""
    seats = list(
        Seat.objects.filter(tables).values_list(
            "table_id", "position", "entry_id", "round_id", "table__size",
            "table__sheet__time_limit_from", "round__tournament_id",
        )
    )  # fmt: skip
    games: dict[int, list[TableGame]] = defaultdict(list)
    rows = Game.objects.filter(tables).order_by("table_id", "number")
    for table_id, kind, soloist, *points in rows.values_list(
        "table_id", "kind", "soloist_position", *POINTS
    ):
        games[table_id].append(TableGame(PlayedGame(GameKind(kind).scoring, soloist), points))
    penalties: dict[int, list[list[int | None]]] = defaultdict(list)
    for table_id, *points in (
        Penalty.objects.counting().filter(tables).values_list("table_id", *POINTS)
    ):
        penalties[table_id].append(points)
    owners = {seat[6] for seat in seats}
    profiles = {
        t.pk: t.profile
        for t in Tournament.objects.filter(pk__in=owners).only(
            "rule_profile", "custom_base", "custom_overrides"
        )
    }
    by_table: dict[int, dict[int, SeatResult]] = {}
    results = []
    for table_id, position, entry_id, round_id, size, limit, tournament_id in seats:
        if table_id not in by_table:
            by_table[table_id] = table_results(
                profiles[tournament_id], size, games[table_id], penalties[table_id],
                time_limit_from=limit,
            )  # fmt: skip
        seat = by_table[table_id][position]
        results.append(RoundResult(round_id=round_id, entry_id=entry_id, **asdict(seat)))
    return results


def store(rounds: Iterable[int], results: list[RoundResult]) -> None:
    """Replace the stored results of the closed ``rounds`` (ids) by ``results``: in the
    caller's transaction, one delete and one bulk insert."""
    rounds = list(rounds)
    RoundResult.objects.filter(round_id__in=rounds).delete()
    RoundResult.objects.bulk_create(results, batch_size=500)
    owners = Round.objects.filter(pk__in=rounds).values_list("tournament_id", flat=True)
    mark_changed(*set(owners), results=True)  # the series count them


def store_rounds(rounds: Iterable[Round | int]) -> None:
    """Compute and store the results of these rounds (closed ones; any other has none)."""
    ids = [r if isinstance(r, int) else r.pk for r in rounds]
    closed = list(
        Round.objects.filter(pk__in=ids, status=RoundStatus.CLOSED).values_list("pk", flat=True)
    )
    RoundResult.objects.filter(round_id__in=ids).exclude(round_id__in=closed).delete()
    if closed:
        store(closed, compute(Q(table__round_id__in=closed)))


def restore_table(table: Table) -> None:
    """A closed round's table was corrected (a row of its sheet, a penalty): write its
    seats' results anew, in the caller's transaction. Nothing for a running round."""
    round_ = table.round
    if round_.status != RoundStatus.CLOSED:
        return
    results = compute(Q(table=table))
    entries = [result.entry_id for result in results]
    RoundResult.objects.filter(round=round_, entry_id__in=entries).delete()
    RoundResult.objects.bulk_create(results)
    mark_changed(round_.tournament_id, results=True)  # the series count them


@dataclass(frozen=True)
class Difference:
    """A stored result that is not what the games give (``stored`` or ``computed`` None:
    the row is missing on that side)."""

    tournament: str
    round: int
    start_number: int
    stored: dict | None
    computed: dict | None

    def __str__(self) -> str:
        where = _("%(tournament)s, round %(round)s, start no. %(number)s") % {
            "tournament": self.tournament,
            "round": self.round,
            "number": self.start_number,
        }
        if self.stored is None:
            return where + ": " + _("no stored result")
        if self.computed is None:
            return where + ": " + _("a stored result, but no seat")
        changed = [
            _("%(field)s stored %(stored)s, from the games %(computed)s")
            % {"field": name, "stored": self.stored[name], "computed": self.computed[name]}
            for name in FIELDS
            if self.stored[name] != self.computed[name]
        ]
        return where + ": " + "; ".join(changed)


def differences(tournaments: Iterable[Tournament | int] | None = None) -> list[Difference]:
    """Every closed round's stored results against the results recomputed from its games and
    penalties (all tournaments, or these)."""
    rounds = Round.objects.filter(status=RoundStatus.CLOSED)
    if tournaments is not None:
        rounds = rounds.filter(
            tournament__in=[t if isinstance(t, int) else t.pk for t in tournaments]
        )
    found = []
    for round_ in rounds.select_related("tournament").order_by("tournament_id", "number"):
        computed = {
            r.entry_id: {f: getattr(r, f) for f in FIELDS} for r in compute(Q(table__round=round_))
        }
        stored = {
            row["entry_id"]: {f: row[f] for f in FIELDS}
            for row in RoundResult.objects.filter(round=round_).values("entry_id", *FIELDS)
        }
        numbers = dict(round_.tournament.entries.values_list("pk", "start_number"))
        for entry_id in sorted(computed.keys() | stored.keys(), key=lambda pk: numbers.get(pk, 0)):
            mine, theirs = stored.get(entry_id), computed.get(entry_id)
            if mine != theirs:
                found.append(
                    Difference(
                        round_.tournament.slug,
                        round_.number,
                        numbers.get(entry_id, 0),
                        mine,
                        theirs,
                    )
                )
    return found
