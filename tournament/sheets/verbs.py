"""Every write to a table's Spielliste: save rows without losing or overwriting anything,
and carry the sheet through submit, confirm and the closing of the round (reading it with
every check is :mod:`.reads`).

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
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.game import facts_dict, facts_of_row
from scoring.rows import MAX_POINTS

from ..domain import referees, results
from ..domain.actor import Actor
from ..errors import DomainError
from ..models import (
    Game,
    GameKind,
    Penalty,
    Registration,
    Round,
    RoundStatus,
    SheetStatus,
    Table,
    Tournament,
)
from ..models.audit import LIST_KEEPER, Reason, event, stamp
from ..models.locks import lock, locked_table
from ..models.registration import new_registration_token
from ..models.tournament import new_confirm_code, new_personal_token
from ..ops.backup import backup_quietly
from ..queries.sheets import SheetView, board, clock, load
from . import codes
from .checks import DirectorOnly, check_writable


@dataclass(frozen=True)
class RowInput:
    kind: str  # a GameKind value
    soloist: int | None
    points: tuple[int, ...]
    # The game's facts from the Spielwert-Rechner (scoring.game.facts_dict), when the row was
    # taken from it; stored only when they give this row (see _assign).
    facts: dict | None = None


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


def _stamp(instance, actor: Actor, reason: Reason = "", note: Reason = ""):
    """Name the actor (and why) in the history record of ``instance``'s next save: the
    label says who, also for a list keeper, who has no account (its label is in the site's
    language, :func:`readable` writes it in the reader's; the rest is an event)."""
    params = {"actor": actor.label, "reason": reason, "note": note}
    by = event("by", **{name: value for name, value in params.items() if value})
    return stamp(instance, actor.user, by, role="" if actor.privileged else LIST_KEEPER)


def _confirmation_note(table: Table) -> Reason:
    """What a change to ``table`` does to its confirmation, for the history ("" if the sheet
    is not confirmed)."""
    if table.sheet.status != SheetStatus.CONFIRMED:
        return ""
    if table.round.status == RoundStatus.RELEASED:
        return event("changed-after-confirmation-again")
    return event("changed-after-confirmation")


def _changed_after_confirmation(table: Table, actor: Actor, reason: str, note: Reason) -> None:
    """A confirmed sheet was changed at the office. In a running round the confirmation no
    longer holds: the sheet goes back to "submitted" and the round cannot be closed until a
    director or another player of the table confirms it again. A closed round stays closed
    and the sheet confirmed, marked as changed. Either way the table's history says why."""
    sheet = table.sheet
    if table.round.status == RoundStatus.RELEASED:
        sheet.status = SheetStatus.SUBMITTED
        sheet.confirmed_at = None
        sheet.confirmed_by = ""
    sheet.changed_after_confirmation = True
    _stamp(sheet, actor, reason, note).save()


def _assign(game: Game, row: RowInput, table: Table) -> None:
    game.kind = row.kind
    game.soloist_position = row.soloist
    game.p1, game.p2, game.p3, game.p4 = row.points[:4]
    game.p5 = row.points[4] if len(row.points) == 5 else None
    game.facts = _kept_facts(game, row, table)


def _kept_facts(game: Game, row: RowInput, table: Table) -> dict | None:
    """The facts the changed row keeps: those it brings, or, for a row changed without any
    (typed, from paper), those it had; either only while they give the row. A row corrected
    to other points thus loses facts that no longer fit: never a contradiction on file."""
    given = row.facts if row.facts is not None else game.facts
    facts = facts_of_row(
        table.round.tournament.profile,
        given,
        solo=GameKind(row.kind).scoring.is_solo,
        soloist=row.soloist,
        points=row.points,
    )
    return facts_dict(facts) if facts is not None else None


def same_row(game: Game, row: RowInput) -> bool:
    """Nothing to store: the same row, and no facts that the stored row lacks."""
    return (
        game.kind == row.kind
        and game.soloist_position == row.soloist
        and tuple(game.points) == tuple(row.points)
        and (row.facts is None or row.facts == game.facts)
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
        check_writable(table, actor, reason)
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
        _assign(game, row, table)
        _stamp(game, actor, reason, note)
        game.save()
        if note:
            _changed_after_confirmation(table, actor, reason, note)
        results.restore_table(table)
        return game


def delete_last(table: Table, actor: Actor, *, number: int, version: int, reason: str = "") -> None:
    """Remove the last game of the sheet (a row entered by mistake)."""
    with transaction.atomic():
        table = locked_table(table)
        check_writable(table, actor, reason)
        last = table.games.order_by("-number").first()
        if last is None or last.number != number:
            raise DomainError(_("Only the last game can be removed; correct the others."))
        if last.version != version:
            raise Conflict(number, None, last)
        note = _confirmation_note(table)
        _stamp(last, actor, reason or event("row-removed"), note)
        last.delete()
        if note:
            _changed_after_confirmation(table, actor, reason, note)
        results.restore_table(table)


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
        check_writable(table, actor, reason)
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
                _stamp(stored[number], actor, reason or event("row-removed"), note)
                stored[number].delete()
                changed += 1
        for number, row in enumerate(rows, start=1):
            if number not in stored:
                game = Game(table=table, number=number)
            elif same_row(stored[number], row):
                continue
            else:
                game = stored[number]
                game.version += 1
            _assign(game, row, table)
            _stamp(game, actor, reason, note)
            game.save()
            changed += 1
        if changed and note:
            _changed_after_confirmation(table, actor, reason, note)
        if changed:
            results.restore_table(table)
        return changed


# --- workflow ----------------------------------------------------------------------------


def submit(table: Table, actor: Actor, code: str | None = None) -> SheetView:
    """The list keeper hands in the sheet: it must be complete and free of errors. On the
    token link the keeper gives their start number and the code of their player card, so
    that the sheet names who really submitted it (and one phone cannot play both parts)."""
    return codes.counting_wrong_codes(table, lambda: _submit(table, actor, code))


def _submit(table: Table, actor: Actor, code: str | None) -> SheetView:
    with transaction.atomic():
        table = locked_table(table)
        if table.round.status != RoundStatus.RELEASED:
            raise DomainError(_("Only sheets of a running round can be submitted."))
        record = table.sheet
        if record.status != SheetStatus.OPEN:
            raise DomainError(_("The sheet has already been submitted."))
        if not actor.privileged:
            codes.check_player_code(table, actor.start_number, code, actor.guesser)
        sheet = load(table, complete=False)
        if not sheet.finished:
            raise DomainError(
                _("The sheet is not complete: %(count)s of %(nominal)s games.")
                % {"count": len(sheet.games), "nominal": sheet.nominal}
            )
        if record.time_limit_from is None and len(sheet.games) < sheet.nominal:
            record.time_limit_from = len(sheet.games) + 1
        sheet = load(table, complete=True)
        if sheet.has_errors:
            raise DomainError(
                ngettext(
                    "The sheet has %(count)s error. Correct it before submitting.",
                    "The sheet has %(count)s errors. Correct them before submitting.",
                    sheet.error_count,
                )
                % {"count": sheet.error_count}
            )
        record.struck_games = max(0, sheet.nominal - len(sheet.games))
        record.status = SheetStatus.SUBMITTED
        record.submitted_at = timezone.now()
        record.submitted_by = actor.label
        record.submitted_start_number = actor.start_number
        _stamp(record, actor).save()
        return sheet


def _refuse_errors(table: Table, sheet: SheetView | None = None) -> None:
    """A sheet changed by the office after its submission is checked again before it counts
    (``sheet``: the table's sheet when it is already read)."""
    sheet = sheet or load(table, complete=True)
    if sheet.has_errors:
        raise DomainError(
            ngettext(
                "The sheet of table %(table)s has %(count)s error. Correct it first.",
                "The sheet of table %(table)s has %(count)s errors. Correct them first.",
                sheet.error_count,
            )
            % {"table": table.number, "count": sheet.error_count}
        )


def confirm(table: Table, actor: Actor, code: str | None = None) -> None:
    """A second person confirms the submitted sheet: a director, or another player of the
    table on the token link with their start number and the confirmation code of their
    player card — a code only that player has, so "confirmed by another player" means that
    player. Wrong codes are counted per table (:class:`~tournament.sheets.codes.WrongCode`)."""
    if actor.privileged and not actor.director:
        raise DirectorOnly(_("Only the tournament director can confirm a sheet at the office."))
    codes.counting_wrong_codes(table, lambda: _confirm(table, actor, code))


def _confirm(table: Table, actor: Actor, code: str | None) -> None:
    with transaction.atomic():
        table = locked_table(table)
        sheet = table.sheet
        if sheet.status != SheetStatus.SUBMITTED:
            raise DomainError(_("Only a submitted sheet can be confirmed."))
        if not actor.privileged:
            if sheet.submitted_start_number == actor.start_number:
                raise DomainError(_("The sheet must be confirmed by somebody else."))
            codes.check_player_code(table, actor.start_number, code, actor.guesser)
        _refuse_errors(table)
        sheet.status = SheetStatus.CONFIRMED
        sheet.confirmed_at = timezone.now()
        sheet.confirmed_by = actor.label
        sheet.changed_after_confirmation = False  # the new confirmation covers the change
        _stamp(sheet, actor).save()


def renew_codes(
    table: Table, actor: Actor, mail_link: Callable[[str], None] | None = None
) -> list[int]:
    """The director unlocks a table and gives its players new confirmation codes, in one
    step: wrong codes counted there are forgotten, and a code somebody may have seen or
    guessed stops working. Returns the start numbers whose player cards must be printed
    anew. The entries' saves move the tournament's results version, so a player cards file
    made before is never served again (tournament/tasks/documents.py).

    Every page that shows the code gets a new address too: the card's (the entry's token)
    and an online registration's personal link, whose new address ``mail_link`` sends to
    its e-mail address after the commit ("send my link again" gives it as well)."""
    if not actor.director:
        raise DirectorOnly(_("Only the tournament director can renew the confirmation codes."))
    with transaction.atomic():
        table = locked_table(table)
        if table.round.status != RoundStatus.RELEASED:
            raise DomainError(_("Only the codes of a running round's table can be renewed."))
        entries = [seat.entry for seat in table.seats.select_related("entry").order_by("position")]
        reason = event("code-renewed", table=table.number)
        for entry in entries:
            # The old card's QR code opens the personal page, which shows the code: it must
            # stop working with the old code.
            entry.confirm_code, entry.token = new_confirm_code(), new_personal_token()
            _stamp(entry, actor, reason).save(update_fields=["confirm_code", "token"])
        linked = Registration.objects.filter(entry__in=entries).exclude(token=None)
        for registration in linked.order_by("pk"):
            registration.token = new_registration_token()
            _stamp(registration, actor, reason).save(update_fields=["token"])
            if mail_link is not None and registration.email:
                transaction.on_commit(partial(mail_link, registration.email))
        codes.unlock(table)
    return sorted(entry.start_number for entry in entries)


def reopen(table: Table, actor: Actor, reason: str) -> None:
    """A director sends a submitted or confirmed sheet back to the list keeper."""
    if not actor.privileged:
        raise DomainError(_("Only the tournament office can reopen a sheet."))
    if not actor.director:
        raise DirectorOnly(_("Only the tournament director can reopen a sheet."))
    if not reason.strip():
        raise DomainError(_("Reopening a sheet needs a reason."))
    with transaction.atomic():
        table = locked_table(table)
        if table.round.status != RoundStatus.RELEASED:
            raise DomainError(_("Only sheets of a running round can be reopened."))
        sheet = table.sheet
        sheet.status = SheetStatus.OPEN
        sheet.submitted_at = sheet.confirmed_at = None
        sheet.submitted_by = sheet.confirmed_by = ""
        sheet.changed_after_confirmation = False
        _stamp(sheet, actor, reason).save()


def mark_time_up(table: Table, actor: Actor) -> None:
    """The time is up (TSR 8.5.1): the game in progress is finished and entered; from the
    next game on only vorgeführte Pflichtsoli remain. The list keeper can mark it once the
    clock has run out, the office at any time."""
    with transaction.atomic():
        table = locked_table(table)
        sheet = table.sheet
        if table.round.status != RoundStatus.RELEASED or sheet.status != SheetStatus.OPEN:
            raise DomainError(_("The time limit can only be recorded on an open sheet."))
        if sheet.time_limit_from is not None:
            return
        if not actor.privileged and not clock(table).expired:
            raise DomainError(_("The playing time is not over yet."))
        sheet.time_limit_from = table.games.count() + 1
        _stamp(sheet, actor).save(update_fields=["time_limit_from"])


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
        sheet = table.sheet
        sheet.extra_minutes += minutes
        note = f"+{minutes} min: {reason.strip()}"
        sheet.extra_reason = "; ".join(filter(None, [sheet.extra_reason, note]))[-200:]
        # A time limit recorded too early is lifted while no game has been played after it.
        limit = sheet.time_limit_from
        played_after = limit is not None and table.games.filter(number__gte=limit).exists()
        if limit is not None and not clock(table).expired and not played_after:
            sheet.time_limit_from = None
        _stamp(sheet, actor, note).save(
            update_fields=["extra_minutes", "extra_reason", "time_limit_from"]
        )


# How often closing a round checks its sheets again when something was written meanwhile.
CLOSE_ATTEMPTS = 3


def _close_refusal(round_: Round) -> None:
    """Why ``round_`` cannot be closed (a DomainError), from its sheets and penalties."""
    if round_.status != RoundStatus.RELEASED:
        raise DomainError(_("Only a released round can be closed."))
    open_tables = list(
        round_.tables.exclude(sheet__status=SheetStatus.CONFIRMED)
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
    for view in board(round_, complete=True):
        _refuse_errors(view.table, view)


def close_round(round_: Round, user) -> None:
    """The director closes a round once every sheet is confirmed, and its results are stored
    (:mod:`tournament.domain.results`).

    The sheets are checked and the results computed outside the transaction (every sheet of
    the round: too long to hold the write lock); the transaction closes the round only if the
    tournament's version (moved by every write to its sheets, games and penalties) is still
    the one they were made from, else they are made again — the last time inside the
    transaction."""
    pk, tournament_id = round_.pk, round_.tournament_id
    for attempt in range(CLOSE_ATTEMPTS + 1):
        last = attempt == CLOSE_ATTEMPTS
        if not last:
            version = _version(tournament_id)
            _close_refusal(Round.objects.select_related("tournament").get(pk=pk))
            prepared = results.compute(Q(table__round=pk))
        with transaction.atomic():
            round_ = lock(Round.objects).get(pk=pk)
            # Every sheet's row too: a change at the desk that is being saved right now (and
            # may send a confirmed sheet back) finishes first, or waits until the round is
            # closed.
            list(lock(round_.tables.all()).values_list("pk", flat=True))
            if last:
                _close_refusal(round_)
                prepared = results.compute(Q(table__round=pk))
            elif _version(tournament_id) != version:
                continue
            round_.status = RoundStatus.CLOSED
            round_.closed_at = timezone.now()
            stamp(round_, user).save(update_fields=["status", "closed_at"])
            results.store([round_.pk], prepared)
            referees.close_calls(round_, user)
            # A closed round is a milestone worth a copy of the whole database.
            label = f"{round_.tournament.slug}-round-{round_.number}-closed"
            transaction.on_commit(partial(backup_quietly, label))
            return


def _version(tournament_id: int) -> int:
    return Tournament.objects.values_list("version", flat=True).get(pk=tournament_id)


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
