"""A table's Spielliste in one round: load it with every check, save rows without losing or
overwriting anything, and carry it through submit, confirm and the closing of the round.

Who acts is an :class:`Actor`: the list keeper or a player on the table's token link, or a
director or referee with an account. Every change of a row goes into the row's history with
the actor and, where one is required, the reason.

Rows are saved one at a time and each save is

* idempotent: a row carries the id its form was given (``client_id``); the same submission
  sent twice finds the stored row instead of storing a second one;
* versioned: a change names the version it was made on; if somebody else changed the row
  in the meantime, :class:`Conflict` carries both versions and nothing is written.
"""

from __future__ import annotations

import re
import secrets
import uuid
from collections.abc import Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.ledger import Kind, LedgerStep, PlayedGame, walk
from scoring.sheet import ERROR, Finding, SheetRow, check_sheet, has_errors, totals

from .. import ratelimit
from ..backup import backup_quietly
from ..domain import DomainError
from ..models import (
    Game,
    GameKind,
    Penalty,
    RefereeCall,
    Round,
    RoundStatus,
    Seat,
    SheetStatus,
    Table,
)
from ..models.audit import LIST_KEEPER
from ..models.penalty import points_of

LEDGER_KIND = {
    GameKind.NORMAL: Kind.NORMAL,
    GameKind.PFLICHTSOLO: Kind.PFLICHTSOLO,
    GameKind.VORGEFUEHRT: Kind.VORGEFUEHRT,
    GameKind.LUSTSOLO: Kind.LUSTSOLO,
    GameKind.HOCHZEIT: Kind.HOCHZEIT,
    GameKind.STILLE_HOCHZEIT: Kind.HOCHZEIT,
}
# The letters of the paper list and the desk entry. S is the stille Hochzeit here; penalty
# rows come from the referees' signed penalties, never from the list keeper.
LETTERS = {
    "N": GameKind.NORMAL,
    "P": GameKind.PFLICHTSOLO,
    "V": GameKind.VORGEFUEHRT,
    "L": GameKind.LUSTSOLO,
    "H": GameKind.HOCHZEIT,
    "S": GameKind.STILLE_HOCHZEIT,
}
LETTER_OF = {kind: letter for letter, kind in LETTERS.items()}
MAX_POINTS = 9999  # per cell: far beyond any real game, but keeps typos like 40000 out


@dataclass(frozen=True)
class Actor:
    """Who changes a sheet. ``label`` goes into the history (e.g. "Tisch 3 (Link)");
    ``privileged`` is a director or referee of the tournament."""

    label: str
    user: object | None = None
    privileged: bool = False
    start_number: int | None = None
    director: bool = False  # a director of the tournament: may change closed rounds


@dataclass(frozen=True)
class RowInput:
    kind: str  # a GameKind value
    soloist: int | None
    points: tuple[int, ...]

    @property
    def letter(self) -> str:
        return LETTER_OF[GameKind(self.kind)]


class Conflict(DomainError):
    """Somebody else saved game ``number`` first: ``theirs`` is stored, ``mine`` is not."""

    def __init__(self, number: int, mine: RowInput | None, theirs: Game | None) -> None:
        super().__init__(
            _(
                "Game %(number)s was changed by somebody else in the meantime. Nothing was "
                "saved: compare both versions and enter yours again if it is right."
            )
            % {"number": number}
        )
        self.number, self.mine, self.theirs = number, mine, theirs


@dataclass(frozen=True)
class Clock:
    ends_at: datetime | None

    def seconds_left(self, now: datetime | None = None) -> int | None:
        if self.ends_at is None:
            return None
        return max(0, int((self.ends_at - (now or timezone.now())).total_seconds()))

    @property
    def expired(self) -> bool:
        return self.ends_at is not None and timezone.now() >= self.ends_at


def clock(table: Table) -> Clock:
    started = table.round.started_at
    if started is None:
        return Clock(None)
    minutes = table.round.tournament.profile.playing_minutes(table.size) + table.extra_minutes
    return Clock(started + timedelta(minutes=minutes))


@dataclass
class Sheet:
    """A table's sheet as the pages show it."""

    table: Table
    seats: list[Seat]
    games: list[Game]
    rows: list[SheetRow]
    findings: list[Finding]
    steps: list[LedgerStep]
    nominal: int
    clock: Clock
    penalties: list = field(default_factory=list)  # the counting ones, as rows on the sheet
    by_game: dict[int, list[Finding]] = field(default_factory=dict)

    @property
    def next_step(self) -> LedgerStep:
        return self.steps[-1]

    @property
    def next_number(self) -> int:
        return len(self.games) + 1

    @property
    def totals(self) -> tuple[int, ...]:
        return totals(self.rows, self.table.size)

    @property
    def has_errors(self) -> bool:
        return has_errors(self.findings)

    @property
    def error_count(self) -> int:
        return sum(f.level == ERROR for f in self.findings)

    @property
    def time_up(self) -> bool:
        return self.table.time_limit_from is not None or self.clock.expired

    @property
    def finished(self) -> bool:
        """Every game played, or the time is up and no Pflichtsolo is owed any more."""
        if len(self.games) >= self.nominal:
            return True
        return self.time_up and not self.next_step.owing_before

    def seat(self, position: int) -> Seat | None:
        return next((s for s in self.seats if s.position == position), None)

    @property
    def outlook(self) -> Outlook:
        """The one thing the list keeper does next, so that the pages never say two things
        at once (e.g. "game 25 must be vorgeführt" next to "all games are entered")."""
        count, step = len(self.games), self.next_step
        if count > self.nominal:
            return Outlook("too-many", game=count)
        if count >= self.nominal and step.owing_before:
            # A further game can only be one too many: the Pflichtsolo was missed before.
            missed = next((f.game for f in self.findings if f.code == "vorfuehren-missed"), None)
            return Outlook("pflichtsolo-missed", game=missed, positions=step.owing_before)
        if not self.finished:
            if step.vorfuehren is not None:
                return Outlook("vorfuehren", game=step.game, positions=(step.vorfuehren,))
            return Outlook("playing", game=step.game)
        if self.has_errors:
            return Outlook("errors", errors=self.error_count)
        return Outlook("ready")

    @property
    def more_games_possible(self) -> bool:
        """A new game may still belong on the sheet: beyond the nominal count it never does."""
        return len(self.games) < self.nominal


@dataclass(frozen=True)
class Outlook:
    """Where a sheet stands for its list keeper: ``playing`` (enter game ``game``),
    ``vorfuehren`` (game ``game`` must be the vorgeführtes Pflichtsolo of ``positions``),
    ``pflichtsolo-missed`` (every game is entered but ``positions`` lack a Pflichtsolo; it was
    due in game ``game``), ``too-many`` (more games than a round has), ``errors`` (complete,
    but ``errors`` errors are left) or ``ready`` (complete and free of errors: submit)."""

    code: str
    game: int | None = None
    positions: tuple[int, ...] = ()
    errors: int = 0


def game_row(game: Game, size: int) -> SheetRow:
    points = [game.p1, game.p2, game.p3, game.p4, game.p5][:size]
    return SheetRow(game.number, LEDGER_KIND[game.kind], game.soloist_position, tuple(points))


def load(table: Table, *, complete: bool = False) -> Sheet:
    """The sheet of ``table`` with every finding. ``complete`` checks it as a finished
    sheet (missing Pflichtsoli, too few games), as at submission."""
    profile = table.round.tournament.profile
    games = list(table.games.order_by("number"))
    seats = list(table.seats.select_related("entry__player").order_by("position"))
    rows = [game_row(g, table.size) for g in games]
    penalties = list(
        table.penalties.counting().select_related("referee").order_by("game_number", "pk")
    )
    for penalty in penalties:
        points = tuple(points_of(penalty))
        row = SheetRow(penalty.game_number, Kind.PENALTY, penalty.soloist_position, points)
        rows.append(row)
    # A sheet with every game (or a time limit) is checked as finished, so that a missing
    # Pflichtsolo shows before the list keeper tries to submit.
    complete = complete or len(games) >= profile.games_per_round(table.size)
    findings = check_sheet(
        profile, table.size, rows, complete=complete, time_limit_from=table.time_limit_from
    )
    steps = walk(
        profile,
        table.size,
        [PlayedGame(LEDGER_KIND[g.kind], g.soloist_position) for g in games],
        time_limit_from=table.time_limit_from,
    )
    sheet = Sheet(
        table=table,
        seats=seats,
        games=games,
        rows=rows,
        findings=findings,
        steps=steps,
        penalties=penalties,
        nominal=profile.games_per_round(table.size),
        clock=clock(table),
    )
    for finding in findings:
        sheet.by_game.setdefault(finding.game, []).append(finding)
    return sheet


# --- who may change what -----------------------------------------------------------------


def _check_writable(table: Table, actor: Actor, reason: str) -> None:
    status = table.round.status
    if status not in (RoundStatus.RELEASED, RoundStatus.CLOSED):
        raise DomainError(_("This round has not been released yet."))
    if status == RoundStatus.CLOSED and actor.privileged and not actor.director:
        raise DomainError(
            _("Round %(number)s is closed: only the tournament director can change its sheets.")
            % {"number": table.round.number}
        )
    if status == RoundStatus.CLOSED or table.sheet_status != SheetStatus.OPEN:
        if not actor.privileged:
            if status == RoundStatus.CLOSED:
                raise DomainError(_("The round is closed. Ask the tournament office."))
            raise DomainError(
                _("The sheet has been submitted. Ask the tournament office for changes.")
            )
        if not reason.strip():
            raise DomainError(_("Changing a submitted sheet or a closed round needs a reason."))


def _validate(table: Table, row: RowInput) -> None:
    if row.kind not in GameKind.values:
        raise DomainError(_("Unknown kind of game."))
    if len(row.points) != table.size:
        raise DomainError(_("A row needs one value per player."))
    if any(abs(v) > MAX_POINTS for v in row.points):
        raise DomainError(
            _("Values are limited to ±%(limit)s points — typo?") % {"limit": MAX_POINTS}
        )
    if row.kind == GameKind.NORMAL:
        if row.soloist is not None:
            raise DomainError(_("A normal game has no soloist."))
    elif row.soloist is None or not 1 <= row.soloist <= table.size:
        raise DomainError(_("A solo needs the position of the soloist."))


def locked_table(table: Table) -> Table:
    """The table row locked for this transaction: saves to one sheet happen one at a time."""
    return (
        Table.objects.select_for_update(of=("self",))
        .select_related("round__tournament")
        .get(pk=table.pk)
    )


def _record(game: Game, actor: Actor, reason: str, note: str = "") -> None:
    game._history_user = actor.user  # noqa: SLF001 - simple-history's documented hook
    if not actor.privileged:
        game._history_role = LIST_KEEPER  # noqa: SLF001 - read by models.audit
    text = f"{actor.label}: {reason}" if reason else actor.label
    game._change_reason = f"{text} · {note}" if note else text  # noqa: SLF001


def _confirmation_note(table: Table) -> str:
    """What a change to ``table`` does to its confirmation, for the history ("" if the sheet
    is not confirmed). Stored, so written in the site's language."""
    if table.sheet_status != SheetStatus.CONFIRMED:
        return ""
    with translation.override(settings.LANGUAGE_CODE):
        if table.round.status == RoundStatus.RELEASED:
            return _("changed after confirmation: to be confirmed again")
        return _("changed after confirmation")


def _changed_after_confirmation(table: Table, actor: Actor, reason: str, note: str) -> None:
    """A confirmed sheet was changed at the office. In a running round the confirmation no
    longer holds: the sheet goes back to "submitted" and the round cannot be closed until a
    director or another player of the table confirms it again. A closed round stays closed
    and the sheet confirmed, marked as changed. Either way the table's history says why."""
    if table.round.status == RoundStatus.RELEASED:
        table.sheet_status = SheetStatus.SUBMITTED
        table.confirmed_at = None
        table.confirmed_by = ""
    table.changed_after_confirmation = True
    table._history_user = actor.user  # noqa: SLF001
    table._change_reason = f"{actor.label}: {reason} · {note}"  # noqa: SLF001
    table.save()


def _assign(game: Game, row: RowInput) -> None:
    game.kind = row.kind
    game.soloist_position = row.soloist
    values = list(row.points) + [None] * (5 - len(row.points))
    game.p1, game.p2, game.p3, game.p4, game.p5 = values


def same_row(game: Game, row: RowInput) -> bool:
    return (
        game.kind == row.kind
        and game.soloist_position == row.soloist
        and tuple(game.points) == tuple(row.points)
    )


def save_row(
    table: Table,
    actor: Actor,
    row: RowInput,
    *,
    number: int,
    version: int | None = None,
    client_id: uuid.UUID | None = None,
    reason: str = "",
) -> Game:
    """Store game ``number`` of the sheet: a new row when ``version`` is None (``number``
    must then be the next game), else a change of the row seen at ``version``."""
    with transaction.atomic():
        table = locked_table(table)
        if client_id is not None:
            done = Game.objects.filter(client_id=client_id).first()
            if done is not None:
                if done.table_id != table.pk:
                    raise DomainError(_("This form belongs to another table."))
                if not same_row(done, row):
                    raise Conflict(done.number, row, done)
                return done  # the same submission again: already stored
        _check_writable(table, actor, reason)
        _validate(table, row)
        note = _confirmation_note(table)
        existing = table.games.filter(number=number).first()
        if version is None:
            if existing is not None:
                raise Conflict(number, row, existing)
            if number != table.games.count() + 1:
                # Rows were removed since the form was filled in (e.g. the office took back
                # the last game while a phone was offline): like a row taken by somebody else,
                # the list keeper sees both and saves theirs again as the next game.
                raise Conflict(number, row, None)
            game = Game(table=table, number=number, client_id=client_id)
        else:
            if existing is not None and same_row(existing, row):
                return existing  # nothing to change, or the same change sent twice
            if existing is None or existing.version != version:
                raise Conflict(number, row, existing)
            game = existing
            game.version += 1
        _assign(game, row)
        _record(game, actor, reason, note)
        game.save()
        if note:
            _changed_after_confirmation(table, actor, reason, note)
        return game


def delete_last(table: Table, actor: Actor, *, number: int, version: int, reason: str = "") -> None:
    """Remove the last game of the sheet (a row entered by mistake)."""
    with transaction.atomic():
        table = locked_table(table)
        _check_writable(table, actor, reason)
        last = table.games.order_by("-number").first()
        if last is None or last.number != number:
            raise DomainError(_("Only the last game can be removed; correct the others."))
        if last.version != version:
            raise Conflict(number, None, last)
        note = _confirmation_note(table)
        _record(last, actor, reason or _("removed"), note)
        last.delete()
        if note:
            _changed_after_confirmation(table, actor, reason, note)


def replace_rows(
    table: Table, actor: Actor, rows: Sequence[RowInput], versions: dict[int, int], reason=""
) -> int:
    """Make the sheet read ``rows`` (game 1, 2, ...) in one transaction, as the desk entry
    and the file import do: unchanged rows stay, changed ones get a new version, rows
    beyond the end are removed. ``versions`` are the versions the desk saw (game -> version);
    a row changed by somebody else since raises :class:`Conflict` and nothing is written.
    Returns the number of rows written or removed."""
    with transaction.atomic():
        table = locked_table(table)
        _check_writable(table, actor, reason)
        for row in rows:
            _validate(table, row)
        stored = {g.number: g for g in table.games.all()}
        for number, game in stored.items():
            seen = versions.get(number)
            mine = rows[number - 1] if number <= len(rows) else None
            if seen is not None and seen != game.version:
                raise Conflict(number, mine, game)
            if seen is None and (mine is None or not same_row(game, mine)):
                raise Conflict(number, mine, game)  # entered since the desk loaded the sheet
        for number in versions:
            if number not in stored:
                raise Conflict(number, rows[number - 1] if number <= len(rows) else None, None)
        changed = 0
        note = _confirmation_note(table)
        for number in sorted(stored, reverse=True):
            if number > len(rows):
                _record(stored[number], actor, reason or _("removed"), note)
                stored[number].delete()
                changed += 1
        for number, row in enumerate(rows, start=1):
            game = stored.get(number)
            if game is not None and same_row(game, row):
                continue
            if game is None:
                game = Game(table=table, number=number)
            else:
                game.version += 1
            _assign(game, row)
            _record(game, actor, reason, note)
            game.save()
            changed += 1
        if changed and note:
            _changed_after_confirmation(table, actor, reason, note)
        return changed


# --- workflow ----------------------------------------------------------------------------


def _table_seat(table: Table, start_number: int | None) -> Seat | None:
    if start_number is None:
        return None
    return table.seats.filter(entry__start_number=start_number).first()


def submit(table: Table, actor: Actor, code: str | None = None) -> Sheet:
    """The list keeper hands in the sheet: it must be complete and free of errors. On the
    token link the keeper gives their start number and the code of their player card, so
    that the sheet names who really submitted it (and one phone cannot play both parts)."""
    return _counting_wrong_codes(table, lambda: _submit(table, actor, code))


def _submit(table: Table, actor: Actor, code: str | None) -> Sheet:
    with transaction.atomic():
        table = locked_table(table)
        if table.round.status != RoundStatus.RELEASED:
            raise DomainError(_("Only sheets of a running round can be submitted."))
        if table.sheet_status != SheetStatus.OPEN:
            raise DomainError(_("The sheet has already been submitted."))
        if not actor.privileged:
            _check_player_code(table, actor, code)
        sheet = load(table, complete=False)
        if not sheet.finished:
            raise DomainError(
                _("The sheet is not complete: %(count)s of %(nominal)s games.")
                % {"count": len(sheet.games), "nominal": sheet.nominal}
            )
        if table.time_limit_from is None and len(sheet.games) < sheet.nominal:
            table.time_limit_from = len(sheet.games) + 1
        sheet = load(table, complete=True)
        if sheet.has_errors:
            raise DomainError(
                _("The sheet has %(count)s error(s). Correct them before submitting.")
                % {"count": sheet.error_count}
            )
        table.struck_games = max(0, sheet.nominal - len(sheet.games))
        table.sheet_status = SheetStatus.SUBMITTED
        table.submitted_at = timezone.now()
        table.submitted_by = actor.label
        table.submitted_start_number = actor.start_number
        table._history_user = actor.user  # noqa: SLF001
        table.save()
        return sheet


def _refuse_errors(table: Table) -> None:
    """A sheet changed by the office after its submission is checked again before it counts."""
    sheet = load(table, complete=True)
    if sheet.has_errors:
        raise DomainError(
            _("The sheet of table %(table)s has %(count)s error(s). Correct them first.")
            % {"table": table.number, "count": sheet.error_count}
        )


# Wrong confirmation codes before the link must wait, counted per start number of a table, so
# that an onlooker holding the link who guesses for one number does not stop the others: 5 in
# 10 minutes leave at most 30 guesses an hour against 90 000 codes of one player, and a player
# who mistyped twice is not stuck. Across all numbers of a table at most 15 in 10 minutes.
CODE_FAILURES, CODE_TABLE_FAILURES, CODE_WINDOW = 5, 15, 600


class WrongCode(DomainError):
    """The confirmation code does not belong to the start number; counted against the start
    number and the table."""


class TooManyCodes(DomainError):
    """Too many wrong codes for this start number or at this table: the link must wait
    ``seconds`` (or the office confirms on the board)."""

    def __init__(self, seconds: int) -> None:
        minutes = max(1, -(-seconds // 60))
        super().__init__(
            _(
                "Too many wrong codes at this table. Please call the tournament office: it can "
                "confirm the sheet. Or try again in %(minutes)s min."
            )
            % {"minutes": minutes}
        )
        self.seconds = seconds


def _code_limits(table: Table, start_number: int) -> tuple[tuple[str, int], ...]:
    return (
        (f"confirm-code:table:{table.pk}:number:{start_number}", CODE_FAILURES),
        (f"confirm-code:table:{table.pk}", CODE_TABLE_FAILURES),
    )


@dataclass
class _CodeSlots:
    """The slots taken for one code check, before it (see :func:`_counting_wrong_codes`)."""

    start_number: int
    slots: tuple[ratelimit.Slot, ...]
    wait: int | None


class _CodeSlotsNeeded(Exception):  # noqa: N818 - a signal, not an error
    """Raised by :func:`_check_player_code` inside the verb's transaction: nothing is written
    yet, the transaction is rolled back, and the slots are taken outside of it."""

    def __init__(self, start_number: int) -> None:
        super().__init__(start_number)
        self.start_number = start_number


_code_slots: ContextVar[list[_CodeSlots] | None] = ContextVar("code_slots", default=None)


def _counting_wrong_codes(table: Table, verb):
    """Run ``verb`` with its code check counted first: every code compared takes a slot in the
    buckets of its start number and of the table before the comparison, each in a short
    transaction of its own that is committed at once, so that parallel requests cannot all
    read a count below the limit. A wrong code keeps its slots; anything else gives them back.

    The verb's transaction locks the table, and the slots must not be taken (and rolled back)
    inside it: when the check finds no slot, it asks for one (:class:`_CodeSlotsNeeded`), the
    verb's transaction rolls back before it has written anything, the slots are taken, and the
    verb runs again."""
    taken: list[_CodeSlots] = []
    context = _code_slots.set(taken)
    counted = False
    try:
        try:
            return verb()
        except _CodeSlotsNeeded as needed:
            number = needed.start_number
            slots, wait = ratelimit.take_all(_code_limits(table, number), CODE_WINDOW)
            taken.append(_CodeSlots(number, slots, wait))
            return verb()
    except WrongCode:
        counted = True
        raise
    finally:
        _code_slots.reset(context)
        if not counted:
            ratelimit.give_back(slot for entry in taken for slot in entry.slots)


def _check_player_code(table: Table, actor: Actor, code: str | None) -> Seat:
    """The player on the token link is who they say: their start number sits at the table
    and ``code`` is the one on their player card. After ``CODE_FAILURES`` wrong codes for
    the start number, or ``CODE_TABLE_FAILURES`` at the table, within ``CODE_WINDOW``
    seconds :class:`TooManyCodes`. Runs only under :func:`_counting_wrong_codes`."""
    seat = _table_seat(table, actor.start_number)
    if seat is None:
        raise DomainError(_("Enter your start number: it must be one of this table."))
    taken = _code_slots.get()
    if taken is None:
        raise RuntimeError("A code is only checked under _counting_wrong_codes().")
    mine = next((t for t in taken if t.start_number == actor.start_number), None)
    if mine is None:
        raise _CodeSlotsNeeded(actor.start_number)
    if mine.wait is not None:
        raise TooManyCodes(mine.wait)
    expected = seat.entry.confirm_code
    if not code or not secrets.compare_digest(code.encode(), expected.encode()):
        raise WrongCode(
            _(
                "This code does not belong to start number %(number)s. Enter the code from "
                "your own player card; nothing was saved."
            )
            % {"number": actor.start_number}
        )
    return seat


def confirm(table: Table, actor: Actor, code: str | None = None) -> None:
    """A second person confirms the submitted sheet: a director, or another player of the
    table on the token link with their start number and the confirmation code of their
    player card — a code only that player has, so "confirmed by another player" means that
    player. Wrong codes are counted per table (:class:`WrongCode`)."""
    _counting_wrong_codes(table, lambda: _confirm(table, actor, code))


def _confirm(table: Table, actor: Actor, code: str | None) -> None:
    with transaction.atomic():
        table = locked_table(table)
        if table.sheet_status != SheetStatus.SUBMITTED:
            raise DomainError(_("Only a submitted sheet can be confirmed."))
        if not actor.privileged:
            if table.submitted_start_number == actor.start_number:
                raise DomainError(_("The sheet must be confirmed by somebody else."))
            _check_player_code(table, actor, code)
        _refuse_errors(table)
        table.sheet_status = SheetStatus.CONFIRMED
        table.confirmed_at = timezone.now()
        table.confirmed_by = actor.label
        table.changed_after_confirmation = False  # the new confirmation covers the change
        table._history_user = actor.user  # noqa: SLF001
        table.save()


def reopen(table: Table, actor: Actor, reason: str) -> None:
    """A director sends a submitted or confirmed sheet back to the list keeper."""
    if not actor.privileged:
        raise DomainError(_("Only the tournament office can reopen a sheet."))
    if not reason.strip():
        raise DomainError(_("Reopening a sheet needs a reason."))
    with transaction.atomic():
        table = locked_table(table)
        if table.round.status != RoundStatus.RELEASED:
            raise DomainError(_("Only sheets of a running round can be reopened."))
        table.sheet_status = SheetStatus.OPEN
        table.submitted_at = table.confirmed_at = None
        table.submitted_by = table.confirmed_by = ""
        table.changed_after_confirmation = False
        table._history_user = actor.user  # noqa: SLF001
        table._change_reason = reason  # noqa: SLF001
        table.save()


def mark_time_up(table: Table, actor: Actor) -> None:
    """The time is up (TSR 8.5.1): the game in progress is finished and entered; from the
    next game on only vorgeführte Pflichtsoli remain. The list keeper can mark it once the
    clock has run out, the office at any time."""
    with transaction.atomic():
        table = locked_table(table)
        if table.round.status != RoundStatus.RELEASED or table.sheet_status != SheetStatus.OPEN:
            raise DomainError(_("The time limit can only be recorded on an open sheet."))
        if table.time_limit_from is not None:
            return
        if not actor.privileged and not clock(table).expired:
            raise DomainError(_("The playing time is not over yet."))
        table.time_limit_from = table.games.count() + 1
        table._history_user = actor.user  # noqa: SLF001
        table.save(update_fields=["time_limit_from"])


def grant_extra_time(table: Table, actor: Actor, minutes: int, reason: str) -> None:
    """Nachspielzeit for one table (TSR 8.5.1), by a referee or director, with a reason."""
    if not actor.privileged:
        raise DomainError(_("Only a referee or the tournament office can grant extra time."))
    if not reason.strip():
        raise DomainError(_("Extra time needs a reason."))
    if not 1 <= minutes <= 120:
        raise DomainError(_("Extra time is 1 to 120 minutes."))
    with transaction.atomic():
        table = locked_table(table)
        if table.round.status != RoundStatus.RELEASED:
            raise DomainError(_("Only tables of a running round get extra time."))
        table.extra_minutes += minutes
        note = f"+{minutes} min: {reason.strip()}"
        table.extra_reason = "; ".join(filter(None, [table.extra_reason, note]))[-200:]
        # A time limit recorded too early is lifted while no game has been played after it.
        limit = table.time_limit_from
        played_after = limit is not None and table.games.filter(number__gte=limit).exists()
        if limit is not None and not clock(table).expired and not played_after:
            table.time_limit_from = None
        table._history_user = actor.user  # noqa: SLF001
        table._change_reason = note  # noqa: SLF001
        table.save(update_fields=["extra_minutes", "extra_reason", "time_limit_from"])


def close_round(round_: Round, user) -> None:
    """The director closes a round once every sheet is confirmed."""
    with transaction.atomic():
        round_ = Round.objects.select_for_update().get(pk=round_.pk)
        if round_.status != RoundStatus.RELEASED:
            raise DomainError(_("Only a released round can be closed."))
        # Every sheet's row too: a change at the desk that is being saved right now (and may
        # send a confirmed sheet back) finishes first, or waits until the round is closed.
        list(round_.tables.select_for_update().values_list("pk", flat=True))
        open_tables = list(
            round_.tables.exclude(sheet_status=SheetStatus.CONFIRMED)
            .order_by("number")
            .values_list("number", flat=True)
        )
        if open_tables:
            raise DomainError(
                _("Not every sheet is confirmed yet (tables %(tables)s).")
                % {"tables": ", ".join(map(str, open_tables))}
            )
        drafts = sorted(
            set(
                Penalty.objects.filter(
                    table__round=round_, signed_at__isnull=True, revoked_at__isnull=True
                ).values_list("table__number", flat=True)
            )
        )
        if drafts:
            raise DomainError(
                ngettext(
                    "An unsigned penalty is waiting at table %(tables)s: a referee signs or "
                    "revokes it first.",
                    "Unsigned penalties are waiting at tables %(tables)s: a referee signs or "
                    "revokes them first.",
                    len(drafts),
                )
                % {"tables": ", ".join(map(str, drafts))}
            )
        for table in round_.tables.select_related("round__tournament").order_by("number"):
            _refuse_errors(table)
        round_.status = RoundStatus.CLOSED
        round_.closed_at = timezone.now()
        round_._history_user = user  # noqa: SLF001
        round_.save(update_fields=["status", "closed_at"])
        RefereeCall.objects.filter(table__round=round_, handled_at__isnull=True).update(
            handled_at=round_.closed_at, handled_by=user
        )
        # A closed round is a milestone worth a copy of the whole database.
        label = f"{round_.tournament.slug}-round-{round_.number}-closed"
        transaction.on_commit(lambda: backup_quietly(label))


def _keeper_label(table_number: int, start_number: int | None) -> str:
    label = _("list keeper of table %(number)s") % {"number": table_number}
    if start_number is not None:
        label += " · " + _("start no. %(number)s") % {"number": start_number}
    return label


def keeper_actor(table: Table, start_number: int | None = None) -> Actor:
    """Somebody on the table's link. The label is stored in the history and on the sheet,
    so it is written in the site's language, not in the language of the phone
    (:func:`readable` shows it in the reader's)."""
    with translation.override(settings.LANGUAGE_CODE):
        label = _keeper_label(table.number, start_number)
    return Actor(label=label, start_number=start_number)


# Stand-ins for the numbers when the stored label is turned into a pattern.
_TABLE_MARK, _START_MARK = "9990001", "9990002"


def readable(text: str) -> str:
    """A stored history text or signature in the reader's language: a keeper's label at its
    start (stored in the site's language, see :func:`keeper_actor`) is written anew in the
    active language; the rest, e.g. a reason somebody typed, stays as it was written."""
    for with_start in (True, False):
        with translation.override(settings.LANGUAGE_CODE):
            stored = _keeper_label(int(_TABLE_MARK), int(_START_MARK) if with_start else None)
        pattern = re.escape(stored)
        pattern = pattern.replace(_TABLE_MARK, r"(\d+)").replace(_START_MARK, r"(\d+)")
        match = re.match(pattern, text)
        if match:
            numbers = [int(group) for group in match.groups()]
            start = numbers[1] if with_start else None
            return _keeper_label(numbers[0], start) + text[match.end() :]
    return text


def office_actor(user, *, director: bool = False) -> Actor:
    """A referee or director at the office; ``director`` may also change closed rounds."""
    return Actor(label=user.get_username(), user=user, privileged=True, director=director)
