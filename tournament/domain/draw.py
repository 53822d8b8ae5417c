"""Seat draws: the solver's plan becomes rounds, tables and seats; swaps; release.

Released and closed rounds are history: the solver gets them as fixed rounds and never
changes them. A drawn round that is not released yet may be drawn again (logged with the
new seed) or adjusted by swapping two players.

A draw never holds the database's write lock while the solver works (SQLite locks the whole
file for a write transaction, so every list keeper's save would wait): it reads what the plan
depends on (a :class:`Snapshot`) without a transaction, solves, then in one short transaction
reads the snapshot again under the tournament's lock and writes the plan in bulk only if
nothing changed meanwhile.
"""

import logging
import secrets
import time
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament import seating

from ..base.versions import mark_changed
from ..errors import DomainError
from ..models import (
    DrawLog,
    Entry,
    EntryStatus,
    Round,
    RoundStatus,
    Seat,
    Sheet,
    Table,
    Tournament,
)
from ..models.audit import role_of, stamp
from ..models.locks import lock, lock_tournament
from ..models.names import club_key
from ..models.round_status import STARTED
from ..queries.wishes import field_wishes, refusal, wish_counts, wish_rows
from ..wording.findings import impossible_field_message
from . import bulk
from .draw_wishes import break_sentences, wish_breaks

logger = logging.getLogger(__name__)

# The largest field one draw seats. The solver keeps to its time limit up to here (1,000
# players in 30 rounds: 7.5 s of 8; 3,000 players take 60 s whatever the limit), and writing
# every round of it stays a short transaction. Far above the largest Doppelkopf tournaments.
MAX_DRAW_PLAYERS = 1000
# The most rounds a tournament may plan (the tournament form refuses more): a long weekend
# has a dozen; each planned round is solved in every draw.
MAX_ROUNDS = 30
# The most seats one draw writes (players x rounds): the write holds the database's lock, and
# 8,000 seats keep it to a fraction of a second (400 x 8: 0.14 s). Bigger fields are drawn
# round by round, each round a short write of its own.
MAX_SEATS_PER_DRAW = 8000
DEFAULT_TIME_LIMIT = 8.0
# The solver's time limit is never a user's choice; this caps what code may ask for.
MAX_TIME_LIMIT = 30.0


def participants(tournament: Tournament) -> list[Entry]:
    """Who is drawn: active entries that have checked in."""
    return list(
        tournament.entries.filter(status=EntryStatus.ACTIVE, checked_in=True)
        .select_related("player")
        .order_by("start_number")
    )


def seating_of(rounds) -> list[list[list[int]]]:
    """The seats of ``rounds`` as the solver sees them: per round, per table, entry ids in
    position order."""
    result = []
    for round_ in rounds:
        tables = []
        for table in round_.tables.all():
            tables.append([s.entry_id for s in sorted(table.seats.all(), key=lambda s: s.position)])
        result.append(tables)
    return result


def _rounds_with_seats(tournament: Tournament):
    return tournament.rounds.prefetch_related("tables__seats").order_by("number")


def _club_groups(separate_rounds: int, clubs_of: list[tuple[int, str]]) -> list[seating.Group]:
    """The clubs to keep apart in the first ``separate_rounds`` rounds, from (entry id, club
    key) pairs in start-number order."""
    if not separate_rounds:
        return []
    rounds = frozenset(range(1, separate_rounds + 1))
    clubs: dict[str, set[int]] = {}
    for entry_id, key in clubs_of:
        if key:
            clubs.setdefault(key, set()).add(entry_id)
    return [seating.Group(frozenset(m), rounds) for m in clubs.values() if len(m) > 1]


@dataclass(frozen=True)
class Snapshot:
    """Everything a plan is computed from. Two equal snapshots give the same plan for the
    same seed, so the plan may be written when the snapshot read under the lock equals the
    one it was computed from."""

    planned_rounds: int
    separate_clubs_rounds: int
    players: tuple[int, ...]  # entry ids of the checked-in field, by start number
    clubs: tuple[str, ...]  # their club keys, in the same order
    rounds: tuple[tuple[int, int, str, int | None], ...]  # (id, number, status, seed)
    fixed: tuple[tuple[tuple[int, ...], ...], ...]  # played rounds: tables: entry ids
    last_log: int | None  # the newest draw log entry: every draw, swap and release adds one
    # Seat wishes (see queries.wishes.field_wishes): never-together groups of entry ids (the
    # teams among them when teams_apart), and (entry id, table number) of the fixed tables.
    apart: tuple[tuple[int, ...], ...] = ()
    at_table: tuple[tuple[int, int], ...] = ()
    teams_apart: bool = False
    # what the director asked (queries.wishes.wish_counts): groups entered, their players,
    # teams kept apart
    wish_counts: tuple[int, int, int] = (0, 0, 0)

    @property
    def played(self) -> int:
        return sum(status in STARTED for _id, _number, status, _seed in self.rounds)

    @property
    def clubs_of(self) -> list[tuple[int, str]]:
        return list(zip(self.players, self.clubs, strict=True))

    def request(self, seed: int, time_limit: float, plan=()) -> seating.DrawRequest:
        return seating.DrawRequest(
            players=list(self.players),
            rounds=self.planned_rounds,
            fixed=[[list(table) for table in round_] for round_ in self.fixed],
            separate=_club_groups(self.separate_clubs_rounds, self.clubs_of),
            seed=seed,
            time_limit=min(time_limit, MAX_TIME_LIMIT),
            plan=plan,
            apart=[frozenset(group) for group in self.apart],
            at_table=dict(self.at_table),
        )


def _snapshot(tournament: Tournament) -> Snapshot:
    """Read what a draw depends on: a handful of queries returning plain values (no model
    instances), cheap enough to repeat inside the write transaction."""
    field = Entry.objects.filter(
        tournament=tournament, status=EntryStatus.ACTIVE, checked_in=True
    ).order_by("start_number")
    checked_in = list(field.values_list("pk", "player__club"))
    wishes = wish_rows(field)
    apart, at_table = field_wishes(wishes, tournament.teams_apart)
    rounds = tuple(
        tournament.rounds.order_by("number").values_list("pk", "number", "status", "draw_seed")
    )
    seats: dict[int, dict[int, list[int]]] = {}
    rows = (
        Seat.objects.filter(round__tournament=tournament, round__status__in=STARTED)
        .order_by("round__number", "table__number", "position")
        .values_list("round__number", "table__number", "entry_id")
    )
    for round_number, table_number, entry_id in rows:
        seats.setdefault(round_number, {}).setdefault(table_number, []).append(entry_id)
    fixed = tuple(
        tuple(tuple(t) for t in seats.get(number, {}).values())
        for _id, number, status, _seed in rounds
        if status in STARTED
    )
    last_log = DrawLog.objects.filter(round__tournament=tournament).aggregate(last=Max("pk"))
    return Snapshot(
        planned_rounds=tournament.planned_rounds,
        separate_clubs_rounds=tournament.separate_clubs_rounds,
        players=tuple(pk for pk, _club in checked_in),
        clubs=tuple(club_key(club) for _pk, club in checked_in),
        rounds=rounds,
        fixed=fixed,
        last_log=last_log["last"],
        apart=apart,
        at_table=at_table,
        teams_apart=tournament.teams_apart,
        wish_counts=wish_counts(wishes, tournament.teams_apart),
    )


def _plan_to_continue(tournament: Tournament, snapshot: Snapshot) -> list:
    """The whole plan of the draw that seated the last played round (see
    seating.DrawRequest.plan), or none: the same played rounds give the same plan to
    continue, however often the rounds after them are drawn again. Read once per draw, not
    under the lock: any change to it comes with a new log entry, which the snapshot compares."""
    played = [number for _id, number, status, _seed in snapshot.rounds if status in STARTED]
    if not played:
        return []
    plan = (
        DrawLog.objects.filter(
            round__tournament=tournament, round__number=played[-1], plan__isnull=False
        )
        .order_by("-pk")
        .values_list("plan", flat=True)
        .first()
    )
    return plan or []


def _rounds_to_draw(snapshot: Snapshot, all_rounds: bool) -> range:
    """The round numbers this draw fills; a DomainError (nothing written) when the field or
    the tournament cannot be drawn."""
    if snapshot.planned_rounds > MAX_ROUNDS:
        raise DomainError(
            _(
                "A tournament can have at most %(limit)s rounds; this one plans %(count)s. "
                "Reduce the planned rounds in the tournament's settings."
            )
            % {"limit": MAX_ROUNDS, "count": snapshot.planned_rounds}
        )
    first = snapshot.played + 1
    if first > snapshot.planned_rounds:
        raise DomainError(_("All planned rounds have been played or released."))
    players = len(snapshot.players)
    if not players:
        raise DomainError(_("Nobody has checked in yet: there is nobody to draw."))
    if players > MAX_DRAW_PLAYERS:
        raise DomainError(
            _(
                "At most %(limit)s players can be drawn; %(count)s have checked in. Split "
                "the field into several tournaments."
            )
            % {"limit": MAX_DRAW_PLAYERS, "count": players}
        )
    try:
        seating.table_sizes(players)
    except seating.ImpossibleField as exc:
        raise DomainError(impossible_field_message(exc.players, exc.add, exc.remove)) from None
    numbers = range(first, (snapshot.planned_rounds if all_rounds else first) + 1)
    if len(numbers) > 1 and players * len(numbers) > MAX_SEATS_PER_DRAW:
        raise DomainError(
            _(
                "%(players)s players in %(rounds)s rounds are too many to draw at once (at "
                "most %(limit)s seats): draw this field round by round."
            )
            % {"players": players, "rounds": len(numbers), "limit": MAX_SEATS_PER_DRAW}
        )
    return numbers


@dataclass(frozen=True)
class DrawResult:
    rounds: list[Round]
    seconds: float
    seed: int
    cut_by_clock: bool = False  # the seed may not reproduce this plan elsewhere


def draw(
    tournament: Tournament,
    user,
    *,
    all_rounds: bool = False,
    seed: int | None = None,
    time_limit: float = DEFAULT_TIME_LIMIT,
    base_url: str | None = None,
) -> DrawResult:
    """Draw the next round (or every remaining planned round) for the checked-in players.

    The solver runs outside any transaction; the plan is written in one short transaction,
    and only if nothing it was computed from changed meanwhile (else a DomainError and
    nothing written: the director draws again). Then the print packs of the drawn rounds are
    queued (PRINT_PACK_ON_DRAW; ``base_url`` is the site's address for their QR codes)."""
    before = _snapshot(Tournament.objects.get(pk=tournament.pk))
    numbers = _rounds_to_draw(before, all_rounds)
    seed = secrets.randbelow(2**31) if seed is None else seed
    started = time.perf_counter()
    # Drawing one round at a time still plans every remaining round, so that the next
    # round does not paint the later ones into a corner; only the next one is kept.
    request = before.request(seed, time_limit, _plan_to_continue(tournament, before))
    try:
        plan = seating.draw(request)
    except seating.ImpossibleWishes as exc:
        message = refusal(exc, before.at_table, before.teams_apart, before.players)
        raise DomainError(message) from None
    seconds = time.perf_counter() - started
    repeats = {n: seating.evaluate(plan.rounds[:n]).repeat_pairs for n in numbers}
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        if locked is None or _snapshot(locked) != before:
            raise DomainError(
                _(
                    "Something changed while the seats were drawn (the checked-in players, "
                    "the rounds or another draw). Nothing was saved: please draw again."
                )
            )
        cost = wish_cost(before, plan) if request.wishes else None
        drawn = _write_plan(locked, plan, numbers, seed, user, seconds, repeats, cost)
    _prepare_print_packs(drawn, base_url)
    return DrawResult(drawn, seconds, seed, plan.stats.timed_out)


def wish_cost(snapshot: Snapshot, plan: seating.Plan) -> dict:
    """What the seat wishes were and what they cost, as DrawLog.wish_cost stores it: the
    wishes as the director entered them (never-together groups and their players, fixed
    tables, teams kept apart), the whole plan's repeat encounters, lower bound (with the
    wishes), 5-table spread and club conflicts (None when the tournament keeps no clubs
    apart), and the same figures of the best plan found without the wishes (None when the
    clock cut that search)."""
    quality, without = plan.quality, plan.stats.without
    groups, players, teams = snapshot.wish_counts
    clubs = bool(snapshot.separate_clubs_rounds)
    return {
        "groups": groups,
        "players": players,
        "fixed": len(snapshot.at_table),
        "teams": teams,
        "repeats": quality.repeat_pairs,
        # the solver's target counts the repeats the wishes force (pairs that may never
        # meet leave less room): the bound of the plan with the wishes
        "lower_bound": max(quality.lower_bound, plan.stats.target),
        "spread": quality.five_table_spread,
        "clubs": quality.club_violations if clubs else None,
        "without": None
        if without is None
        else {
            "repeats": without.repeat_pairs,
            "spread": without.five_table_spread,
            "clubs": without.club_violations if clubs else None,
        },
    }


def _prepare_print_packs(drawn: list[Round], base_url: str | None) -> None:
    """Queue the print packs of the rounds just drawn (committed above), so that the files
    are ready when the director asks. The seats are saved whatever happens here."""
    from ..tasks import documents  # the documents read the domain: imported when used

    try:
        documents.prepare_print_packs(drawn, base_url)
    except Exception:
        logger.exception("the print packs of the drawn rounds could not be queued")


def _write_plan(
    tournament, plan: seating.Plan, numbers: range, seed: int, user, seconds, repeats, cost
):
    """Write the drawn rounds with their history and draw log and reset the rounds drawn in
    advance after them; tables and seats in bulk. Runs under the tournament's lock."""
    plan_rounds = plan.rounds
    unfair = plan.stats.unfair  # what fair 5-tables cost, if anything
    existing = {r.number: r for r in tournament.rounds.all()}
    with_tables = set(
        Table.objects.filter(round__tournament=tournament).values_list("round__number", flat=True)
    )
    # The history records who drew (none for a command), as :func:`~..models.audit.stamp`
    # does for single saves.
    history_user = user
    role = role_of(user)
    # Later rounds drawn in advance were built on the old plan: they must be drawn again.
    stale = [r for n, r in existing.items() if n > numbers[-1] and r.status == RoundStatus.DRAWN]
    cleared = [existing[n] for n in numbers if n in existing] + stale
    bulk.delete(Seat.objects.filter(round__in=cleared), history_user, role)
    bulk.delete(Sheet.objects.filter(table__round__in=cleared), history_user, role)
    bulk.delete(Table.objects.filter(round__in=cleared), history_user, role)
    for round_ in stale:
        round_.status, round_.draw_seed = RoundStatus.PLANNED, None
        stamp(round_, user).save(update_fields=["status", "draw_seed"])
    drawn, logs = [], []
    for number in numbers:
        round_ = existing.get(number) or Round(tournament=tournament, number=number)
        round_.status, round_.draw_seed = RoundStatus.DRAWN, seed
        stamp(round_, user).save()
        drawn.append(round_)
        logs.append(
            DrawLog(
                round=round_,
                action=DrawLog.Action.REDRAW if number in with_tables else DrawLog.Action.DRAW,
                seed=seed,
                user=user,
                seconds=round(seconds, 3),
                repeat_pairs=repeats[number],
                cut_by_clock=plan.stats.timed_out,
                plan_repeats=plan.quality.repeat_pairs if unfair else None,
                unfair_repeats=unfair.repeat_pairs if unfair else None,
                unfair_spread=unfair.five_table_spread if unfair else None,
                wish_cost=cost,
            )
        )
    bulk.insert(
        Table,
        [
            {"round_id": round_.pk, "number": index, "size": len(players)}
            for round_ in drawn
            for index, players in enumerate(plan_rounds[round_.number - 1], start=1)
        ],
    )
    tables = list(Table.objects.filter(round__in=drawn).values())
    bulk.history(Table, tables, "+", history_user, role)
    # Every table has its Spielliste from the start.
    bulk.insert(Sheet, [{"table_id": t["id"]} for t in tables])
    sheets = Sheet.objects.filter(table__round__in=drawn).values()
    bulk.history(Sheet, sheets, "+", history_user, role)
    number_of = {round_.pk: round_.number for round_ in drawn}
    bulk.insert(
        Seat,
        [
            {"round_id": t["round_id"], "table_id": t["id"], "entry_id": entry, "position": p}
            for t in tables
            for p, entry in enumerate(plan_rounds[number_of[t["round_id"]] - 1][t["number"] - 1], 1)
        ],
    )
    bulk.history(Seat, Seat.objects.filter(round__in=drawn).values(), "+", history_user, role)
    logs[0].plan = plan_rounds  # the whole plan, for the draw after this round is played
    DrawLog.objects.bulk_create(logs)
    mark_changed(tournament, results=True)  # the rows above were written without signals
    return drawn


@dataclass(frozen=True)
class RoundReport:
    """The quality of the plan up to and including a round, as the round page shows it.

    ``club_pairs``: two players of one club at one table, counted in every round up to this
    one, as the report's caption says; ``kept_apart``: those of them in the first
    ``kept_apart_rounds`` rounds, where the draw keeps clubs apart (unavoidable there).

    ``wishes``: whether the round's players have seat wishes (as they stand now);
    ``wish_violations``: the wishes this round breaks (pairs of a never-together group at
    one table, fixed players elsewhere; 0 unless a swap or a later wish broke one), in words
    in ``wish_breaks``."""

    quality: seating.Quality
    club_pairs: int
    kept_apart: int
    kept_apart_rounds: int
    wishes: bool = False
    wish_violations: int = 0
    wish_breaks: tuple[str, ...] = ()


def round_report(round_: Round) -> RoundReport:
    """Quality of the plan up to and including ``round_``."""
    tournament = round_.tournament
    rounds = [r for r in _rounds_with_seats(tournament) if r.number <= round_.number]
    plan = seating_of(rounds)
    seated = {entry for tables in plan for table in tables for entry in table}
    entries = list(tournament.entries.filter(pk__in=seated).select_related("player"))
    clubs_of = [(e.pk, e.player.club_key) for e in entries]
    kept_apart_rounds = min(tournament.separate_clubs_rounds, len(plan))
    quality = seating.evaluate(plan, separate=_club_groups(kept_apart_rounds, clubs_of))
    every_round = seating.evaluate(plan, separate=_club_groups(len(plan), clubs_of))
    this_round = plan[-1] if rounds and rounds[-1].number == round_.number else []
    in_round = Entry.objects.filter(seats__round=round_)
    apart, at_table = field_wishes(wish_rows(in_round), tournament.teams_apart)
    breaks = wish_breaks(this_round, apart, at_table)
    return RoundReport(
        quality=quality,
        club_pairs=every_round.club_violations,
        kept_apart=quality.club_violations,
        kept_apart_rounds=kept_apart_rounds,
        wishes=bool(apart or at_table),
        wish_violations=sum(b.pairs for b in breaks),
        wish_breaks=tuple(break_sentences(breaks)),
    )


def _locked_round(round_: Round) -> Round:
    """The round locked for this transaction, after its tournament: the draw locks the
    tournament row, so a swap or a release waits for a draw writing meanwhile (and the draw
    for them) instead of being overwritten by it — the same order everywhere, no deadlock."""
    lock_tournament(round_.tournament_id)
    return lock(Round.objects).get(pk=round_.pk)


def swap(round_: Round, first: int, second: int, user) -> str | None:
    """Exchange the seats of the players with start numbers ``first`` and ``second`` in a
    drawn round that is not released yet.

    Returns a warning when the swap breaks a seat wish of the two players (the director may
    have a reason: the swap is made all the same), else None."""
    with transaction.atomic():
        round_ = _locked_round(round_)
        if round_.status != RoundStatus.DRAWN:
            raise DomainError(_("Only a drawn round that is not released can be changed."))
        if first == second:
            raise DomainError(_("Choose two different players."))
        seats = {
            s.entry.start_number: s
            for s in round_.seats.filter(entry__start_number__in=[first, second]).select_related(
                "entry"
            )
        }
        for number in (first, second):
            if number not in seats:
                raise DomainError(
                    _("Start number %(number)s has no seat in this round.") % {"number": number}
                )
        a, b = seats[first], seats[second]
        places = [(a.table_id, a.position), (b.table_id, b.position)]
        # Delete and recreate: swapping in place would break the unique constraints midway.
        stamp(a, user).delete()
        stamp(b, user).delete()
        for (table_id, position), entry in ((places[1], a.entry), (places[0], b.entry)):
            seat = Seat(round=round_, table_id=table_id, position=position, entry=entry)
            stamp(seat, user).save()
        DrawLog.objects.create(
            round=round_,
            action=DrawLog.Action.SWAP,
            seed=round_.draw_seed,
            user=user,
            note=f"{first} <-> {second}",
        )
        return _swap_warning(round_, (a.entry_id, b.entry_id))


def _swap_warning(round_: Round, swapped: tuple[int, int]) -> str | None:
    """The seat wishes of the ``swapped`` players their new seats break, in words."""
    tables = seating_of([Round.objects.prefetch_related("tables__seats").get(pk=round_.pk)])[0]
    seated = Entry.objects.filter(seats__round=round_)
    apart, at_table = field_wishes(wish_rows(seated), round_.tournament.teams_apart)
    breaks = [b for b in wish_breaks(tables, apart, at_table) if set(b.players) & set(swapped)]
    if not breaks:
        return None
    return " ".join([_("The swap breaks a seat wish:"), *break_sentences(breaks)])


def release_blocker(round_: Round) -> str | None:
    """Why ``round_`` cannot be released now, in the reader's language; None if it can.

    A round is released only after the one before it is closed: then exactly one round is
    played at a time, and every page (board, referee desk, exports, public pages,
    projector) means the same round by "the current round"."""
    if round_.status != RoundStatus.DRAWN:
        return _("Only a drawn round can be released.")
    previous = (
        round_.tournament.rounds.filter(number__lt=round_.number)
        .exclude(status=RoundStatus.CLOSED)
        .order_by("-number")  # the nearest one: round 4 stands between round 3 and round 5
        .first()
    )
    if previous is None:
        return None
    if previous.status == RoundStatus.RELEASED:
        return _(
            "Round %(number)s is still being played. Close it (every sheet confirmed) before "
            "releasing round %(next)s."
        ) % {"number": previous.number, "next": round_.number}
    return _("Release and close round %(number)s first.") % {"number": previous.number}


def release(round_: Round, user, mail=None) -> None:
    """Publish a drawn round: from now on its seats are fixed and visible to players.
    ``mail`` (a :class:`~tournament.tasks.mail.RequestMailer`) queues the players' seat mails for
    the worker once the release commits."""
    with transaction.atomic():
        round_ = _locked_round(round_)
        blocker = release_blocker(round_)
        if blocker is not None:
            raise DomainError(blocker)
        gone = (
            Entry.objects.filter(seats__round=round_)
            .exclude(status=EntryStatus.ACTIVE)
            .select_related("player")
            .order_by("start_number")
        )
        if gone:
            names = ", ".join(f"{e.start_number} {e.player}" for e in gone)
            raise DomainError(
                _(
                    "Round %(number)s seats players who are no longer playing (withdrawn or "
                    "disqualified): %(names)s. Draw the round again first."
                )
                % {"number": round_.number, "names": names}
            )
        round_.status = RoundStatus.RELEASED
        round_.started_at = timezone.now()  # the round clock starts (TSR 8.5.1)
        stamp(round_, user).save(update_fields=["status", "started_at"])
        DrawLog.objects.create(round=round_, action=DrawLog.Action.RELEASE, user=user)
        if mail is not None:
            mail.seats(round_)
