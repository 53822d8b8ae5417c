"""Seat draws: the solver's plan becomes rounds, tables and seats; swaps; release.

Released and closed rounds are history: the solver gets them as fixed rounds and never
changes them. A drawn round that is not released yet may be drawn again (logged with the
new seed) or adjusted by swapping two players.
"""

import secrets
import time
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament import seating

from ..messages import impossible_field_message
from ..models import DrawLog, Entry, EntryStatus, Round, RoundStatus, Seat, Table, Tournament
from . import DomainError

DEFAULT_TIME_LIMIT = 8.0
PLAYED = (RoundStatus.RELEASED, RoundStatus.CLOSED)


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


def _club_groups(tournament: Tournament, entries: list[Entry]) -> list[seating.Group]:
    if not tournament.separate_clubs_rounds:
        return []
    rounds = frozenset(range(1, tournament.separate_clubs_rounds + 1))
    clubs: dict[str, set[int]] = {}
    for entry in entries:
        key = entry.player.club_key
        if key:
            clubs.setdefault(key, set()).add(entry.pk)
    return [seating.Group(frozenset(m), rounds) for m in clubs.values() if len(m) > 1]


@dataclass(frozen=True)
class DrawResult:
    rounds: list[Round]
    seconds: float
    seed: int


def draw(
    tournament: Tournament,
    user,
    *,
    all_rounds: bool = False,
    seed: int | None = None,
    time_limit: float = DEFAULT_TIME_LIMIT,
) -> DrawResult:
    """Draw the next round (or every remaining planned round) for the checked-in players."""
    with transaction.atomic():
        Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
        existing = list(_rounds_with_seats(tournament))
        played = [r for r in existing if r.status in PLAYED]
        first = len(played) + 1
        last = tournament.planned_rounds if all_rounds else first
        if first > tournament.planned_rounds:
            raise DomainError(_("All planned rounds have been played or released."))
        entries = participants(tournament)
        if not entries:
            raise DomainError(_("Nobody has checked in yet: there is nobody to draw."))
        try:
            seating.table_sizes(len(entries))
        except seating.ImpossibleField as exc:
            raise DomainError(impossible_field_message(exc.players, exc.add, exc.remove)) from None
        seed = secrets.randbelow(2**31) if seed is None else seed
        started = time.perf_counter()
        # Drawing one round at a time still plans every remaining round, so that the next
        # round does not paint the later ones into a corner; only the next one is kept.
        plan = seating.draw(
            seating.DrawRequest(
                players=[e.pk for e in entries],
                rounds=tournament.planned_rounds,
                fixed=seating_of(played),
                separate=_club_groups(tournament, entries),
                seed=seed,
                time_limit=time_limit,
            )
        )
        seconds = time.perf_counter() - started
        by_number = {r.number: r for r in existing}
        drawn = []
        for number in range(first, last + 1):
            round_ = by_number.get(number) or Round(tournament=tournament, number=number)
            redraw = round_.pk is not None and round_.tables.exists()
            action = DrawLog.Action.REDRAW if redraw else DrawLog.Action.DRAW
            round_.status = RoundStatus.DRAWN
            round_.draw_seed = seed
            round_.save()
            round_.tables.all().delete()
            _save_tables(round_, plan.rounds[number - 1])
            DrawLog.objects.create(
                round=round_,
                action=action,
                seed=seed,
                user=user,
                seconds=round(seconds, 3),
                repeat_pairs=seating.evaluate(plan.rounds[:number]).repeat_pairs,
            )
            drawn.append(round_)
        # Later rounds drawn in advance were built on the old plan: they must be drawn again.
        for round_ in existing:
            if round_.number > last and round_.status == RoundStatus.DRAWN:
                round_.tables.all().delete()
                round_.status, round_.draw_seed = RoundStatus.PLANNED, None
                round_.save(update_fields=["status", "draw_seed"])
    return DrawResult(drawn, seconds, seed)


def _save_tables(round_: Round, tables) -> None:
    for number, players in enumerate(tables, start=1):
        table = Table.objects.create(round=round_, number=number, size=len(players))
        for position, entry_id in enumerate(players, start=1):
            Seat.objects.create(round=round_, table=table, entry_id=entry_id, position=position)


def round_report(round_: Round) -> seating.Quality:
    """Quality of the plan up to and including ``round_`` (club conflicts counted in the
    rounds where the tournament keeps clubs apart)."""
    tournament = round_.tournament
    rounds = [r for r in _rounds_with_seats(tournament) if r.number <= round_.number]
    plan = seating_of(rounds)
    seated = {entry for tables in plan for table in tables for entry in table}
    entries = list(tournament.entries.filter(pk__in=seated).select_related("player"))
    return seating.evaluate(plan, separate=_club_groups(tournament, entries))


def swap(round_: Round, first: int, second: int, user) -> None:
    """Exchange the seats of the players with start numbers ``first`` and ``second`` in a
    drawn round that is not released yet."""
    with transaction.atomic():
        round_ = Round.objects.select_for_update().get(pk=round_.pk)
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
        a.delete()
        b.delete()
        Seat.objects.create(
            round=round_, table_id=places[1][0], position=places[1][1], entry=a.entry
        )
        Seat.objects.create(
            round=round_, table_id=places[0][0], position=places[0][1], entry=b.entry
        )
        DrawLog.objects.create(
            round=round_,
            action=DrawLog.Action.SWAP,
            seed=round_.draw_seed,
            user=user,
            note=f"{first} <-> {second}",
        )


def release(round_: Round, user) -> None:
    """Publish a drawn round: from now on its seats are fixed and visible to players."""
    with transaction.atomic():
        round_ = Round.objects.select_for_update().get(pk=round_.pk)
        if round_.status != RoundStatus.DRAWN:
            raise DomainError(_("Only a drawn round can be released."))
        earlier = round_.tournament.rounds.filter(number__lt=round_.number)
        if earlier.exclude(status__in=PLAYED).exists():
            raise DomainError(_("Release the earlier rounds first."))
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
        round_.save(update_fields=["status", "started_at"])
        DrawLog.objects.create(round=round_, action=DrawLog.Action.RELEASE, user=user)
