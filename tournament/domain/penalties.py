"""Referee penalties (Strafpunkte, TSR 8.2.2 and 9): check the facts of a decision against the
table's sheet, compute the row with the rules engine, sign, revoke and replace.

A penalty counts (on the Spielliste and in the standings) only while it is signed by a referee
and not revoked. Nothing is ever deleted: the Schiedsgericht revokes a decision with a reason
and, if needed, replaces it by a new one; both stay in the history. A signed disqualification
marks the player's entry, which takes the player out of every later draw; revoking it
readmits the player.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.errors import InvalidFacts
from scoring.penalties import Category, PenaltyCase, Phase, distribute
from scoring.profiles import UnsportsmanlikeSanction

from ..errors import DomainError
from ..models import (
    Entry,
    EntryStatus,
    GameKind,
    Penalty,
    PenaltyContext,
    Round,
    RoundStatus,
    Seat,
    Table,
)
from ..models.audit import event, stamp
from ..models.locks import lock, lock_tournament, locked_table
from ..models.penalty import next_number, signed_points
from ..queries.sheets import SheetView, load
from ..wording.findings import invalid_facts_message
from . import results

SOLO_CONTEXTS = (PenaltyContext.SOLO, PenaltyContext.HOCHZEIT_AFTER)
# The decisions whose row depends on the game situation; the others are the same anywhere.
SITUATIONAL = (
    Category.GERINGFUEGIG,
    Category.SCHWERWIEGEND,
    Category.DECIDED_GAME,
)
SANCTIONS = {
    Category.WARNING: UnsportsmanlikeSanction.WARNING,
    Category.DEDUCTION: UnsportsmanlikeSanction.DEDUCTION,
    Category.DISQUALIFICATION: UnsportsmanlikeSanction.DISQUALIFICATION,
}
# Which situations fit the game as it stands on the list. The normal scale fits every game:
# a solo is judged as one only once it is clear (TSR 9.3.3), and a game stopped by a
# schwerwiegend violation is dealt again under the same number (9.4.3), whatever it becomes.
_SOLO = (PenaltyContext.NORMAL, PenaltyContext.SOLO)
_HOCHZEIT = (PenaltyContext.NORMAL, PenaltyContext.HOCHZEIT_BEFORE, PenaltyContext.HOCHZEIT_AFTER)
CONTEXTS_FOR_KIND = {
    GameKind.NORMAL: (PenaltyContext.NORMAL, PenaltyContext.HOCHZEIT_BEFORE),
    GameKind.PFLICHTSOLO: _SOLO,
    GameKind.VORGEFUEHRT: _SOLO,
    GameKind.LUSTSOLO: _SOLO,
    GameKind.HOCHZEIT: _HOCHZEIT,
    GameKind.STILLE_HOCHZEIT: _HOCHZEIT,
}


@dataclass(frozen=True)
class Facts:
    """What the referee decided, as the form collects it."""

    game_number: int
    offender: int  # position at the table
    category: str  # a scoring.penalties.Category value
    context: str = PenaltyContext.NORMAL
    soloist: int | None = None
    disadvantages_soloist: bool = False
    absagen: int = 0
    deduction: int = 0
    reason: str = ""


@dataclass(frozen=True)
class Decision:
    """The facts checked against the sheet, with the row they give."""

    table: Table
    facts: Facts
    offender: Seat
    sitter: int | None
    points: tuple[int, ...]
    earlier: list[Penalty]  # the offender's counting penalties in this tournament so far

    @property
    def warnings(self) -> list[Penalty]:
        return [p for p in self.earlier if p.category == Category.WARNING]


def normalized(facts: Facts) -> Facts:
    """Drop what does not apply to the decision (hidden form fields keep their values), so
    that the stored facts say exactly what the row was computed from."""
    situational = facts.category in SITUATIONAL
    context = facts.context if situational else PenaltyContext.NORMAL
    solo = context in SOLO_CONTEXTS
    return Facts(
        game_number=facts.game_number,
        offender=facts.offender,
        category=facts.category,
        context=context,
        soloist=facts.soloist if solo else None,
        disadvantages_soloist=(
            facts.disadvantages_soloist
            and solo
            and facts.category != Category.SCHWERWIEGEND
            and facts.offender != facts.soloist
        ),
        absagen=facts.absagen if facts.category == Category.SCHWERWIEGEND else 0,
        deduction=facts.deduction if facts.category == Category.DEDUCTION else 0,
        reason=facts.reason.strip(),
    )


def _refusal(round_: Round, *, director: bool) -> str:
    """Why penalties of ``round_`` cannot be entered, signed or revoked; empty if they can.
    Referees decide while the round runs; after it is closed only a director can."""
    if not round_.started:
        return _("This round has not been released yet.")
    if round_.status == RoundStatus.CLOSED and not director:
        return _(
            "Round %(number)s is closed: only the tournament director can change penalties."
        ) % {"number": round_.number}
    return ""


def may_write(table: Table, *, director: bool) -> None:
    """Refuse a penalty write the round does not allow (see :func:`_refusal`)."""
    problem = _refusal(table.round, director=director)
    if problem:
        raise DomainError(problem)


def writable(round_: Round, *, director: bool) -> bool:
    """Whether the penalties of ``round_`` can still be signed and revoked (the buttons)."""
    return not _refusal(round_, director=director)


def drafts_to_sign(penalties: QuerySet[Penalty], *, director: bool) -> QuerySet[Penalty]:
    """The drafts among ``penalties`` that wait for a signature the user may give: a
    referee's only those of running rounds (see :func:`_refusal`)."""
    drafts = penalties.filter(signed_at__isnull=True, revoked_at__isnull=True)
    if director:
        return drafts
    return drafts.filter(table__round__status=RoundStatus.RELEASED)


def game_in_question(sheet: SheetView) -> int:
    """The game a new penalty is about unless the referee names one: while the round runs
    and the sheet is not complete, the game being played (as the form's hint says), else the
    sheet's last game."""
    playing = sheet.table.round.status == RoundStatus.RELEASED and sheet.more_games_possible
    return len(sheet.games) + 1 if playing else len(sheet.games) or 1


def _allowed(table: Table, facts: Facts, *, director: bool) -> None:
    may_write(table, director=director)
    if table.round.status == RoundStatus.CLOSED and not facts.reason.strip():
        raise DomainError(_("A penalty in a closed round needs a reason."))


def check(
    table: Table, facts: Facts, *, director: bool, replacing: Penalty | None = None
) -> Decision:
    """What :func:`enter` would store, without storing it (the preview the referee signs):
    the same checks, the same row."""
    _allowed(table, facts, director=director)
    return decide(table, facts, exclude=replacing)


def already_stored(table: Table, client_id) -> Penalty | None:
    """The penalty the same form stored before (a double tap, the browser's back button),
    or None; a form of another table is refused."""
    if client_id is None:
        return None
    done = Penalty.objects.filter(client_id=client_id).first()
    if done is not None and done.table_id != table.pk:
        raise DomainError(_("This form belongs to another table."))
    return done


def may_replace(penalty: Penalty) -> None:
    """Only a penalty that still stands can be replaced."""
    if penalty.revoked_at is not None:
        raise DomainError(
            _("Penalty no. %(id)s has already been revoked.") % {"id": penalty.number}
        )


def decide(table: Table, facts: Facts, *, exclude: Penalty | None = None) -> Decision:
    """Check ``facts`` against the table's sheet and compute the row. Raises
    :class:`DomainError` with a message for the referee when anything does not fit."""
    facts = normalized(facts)
    if facts.category not in list(Category):
        raise DomainError(_("Unknown penalty category."))
    profile = table.round.tournament.profile
    sheet = load(table)
    seat = sheet.seat(facts.offender)
    if seat is None:
        raise DomainError(
            _("Nobody sits at position %(position)s of table %(table)s.")
            % {"position": facts.offender, "table": table.number}
        )
    count = len(sheet.games)
    if count >= sheet.nominal and facts.game_number > count:
        raise DomainError(
            _("Game %(number)s is not on the sheet of table %(table)s: it has all %(count)s games.")
            % {"number": facts.game_number, "table": table.number, "count": count}
        )
    if not 1 <= facts.game_number <= count + 1:
        raise DomainError(
            ngettext(
                "Game %(number)s is not on the sheet of table %(table)s: it has %(count)s "
                "game, so the penalty belongs to game 1 to %(next)s (the game being played).",
                "Game %(number)s is not on the sheet of table %(table)s: it has %(count)s "
                "games, so the penalty belongs to game 1 to %(next)s (the game being played).",
                count,
            )
            % {
                "number": facts.game_number,
                "table": table.number,
                "count": count,
                "next": count + 1,
            }
        )
    game = sheet.games[facts.game_number - 1] if facts.game_number <= count else None
    sitter = sheet.steps[facts.game_number - 1].sitter
    if game is not None and facts.category in SITUATIONAL:
        _check_situation(game, facts)
    sanction = SANCTIONS.get(Category(facts.category))
    if sanction is not None and sanction not in profile.sanctions:
        raise DomainError(_("The tournament's rule profile does not provide this sanction."))
    if facts.category == Category.DEDUCTION and facts.deduction > profile.max_deduction:
        raise DomainError(
            _("At most %(maximum)s points can be deducted under this rule profile.")
            % {"maximum": profile.max_deduction}
        )
    if facts.context in SOLO_CONTEXTS and facts.soloist is not None and facts.soloist == sitter:
        raise DomainError(_("The soloist cannot be the player who sits out this game."))
    case = PenaltyCase(
        table_size=table.size,
        offender=facts.offender,
        category=Category(facts.category),
        phase=Phase.SOLO if facts.context in SOLO_CONTEXTS else Phase.NORMAL,
        soloist=facts.soloist,
        sitter=sitter,
        disadvantages_soloist=facts.disadvantages_soloist,
        k=facts.absagen,
        deduction=facts.deduction,
    )
    try:
        points = distribute(profile, case)
    except InvalidFacts as exc:
        raise DomainError(invalid_facts_message(exc.code, exc.params)) from exc
    earlier = list(
        Penalty.objects.counting()
        .filter(offender=seat.entry)
        .exclude(pk=exclude.pk if exclude else None)
        .select_related("table__round", "referee")
        .order_by("signed_at")
    )
    return Decision(table, facts, seat, sitter, points, earlier)


def _check_situation(game, facts: Facts) -> None:
    allowed = CONTEXTS_FOR_KIND[game.kind]
    if facts.context not in allowed:
        if game.kind == GameKind.NORMAL:
            message = _(
                "Game %(number)s is a normal game on the sheet: a solo situation does not fit."
            )
        elif game.kind in (GameKind.HOCHZEIT, GameKind.STILLE_HOCHZEIT):
            message = _(
                "Game %(number)s is a Hochzeit on the sheet: say whether the violation came "
                "before or after it became a solo."
            )
        else:
            message = _("Game %(number)s is a solo on the sheet, not a Hochzeit.")
        raise DomainError(message % {"number": game.number})
    if facts.context in SOLO_CONTEXTS and facts.soloist != game.soloist_position:
        raise DomainError(
            _("The sheet has position %(soloist)s as the soloist of game %(number)s.")
            % {"soloist": game.soloist_position, "number": game.number}
        )


def _lock(table: Table) -> Table:
    """The round, then the table, locked for this transaction (the order of close_round and
    the sheet saves): a round cannot close while a decision on one of its tables is written."""
    lock(Round.objects.filter(pk=table.round_id)).first()
    return locked_table(table)


# Facts field -> Penalty field: the facts are stored as they were decided.
STORED_AS = {
    "game_number": "game_number",
    "offender": "offender_position",
    "category": "category",
    "context": "context",
    "soloist": "soloist_position",
    "disadvantages_soloist": "disadvantages_soloist",
    "absagen": "absagen",
    "deduction": "deduction",
    "reason": "reason",
}


def facts_of(penalty: Penalty) -> Facts:
    return Facts(**{name: getattr(penalty, field) for name, field in STORED_AS.items()})


def enter(
    table: Table,
    facts: Facts,
    user,
    *,
    sign: bool,
    director: bool,
    replaces: Penalty | None = None,
    revoke_reason: str = "",
    client_id=None,
) -> Penalty:
    """Store a decision, signed (it counts at once) or as a draft for a referee to sign.
    With ``replaces``, that penalty is revoked with ``revoke_reason`` in the same
    transaction. ``client_id`` makes it idempotent: the same form sent twice (a double tap,
    the browser's back button) finds the stored penalty instead of storing a second one."""
    with transaction.atomic():
        # The tournament first (the order of the draw): the next penalty number is taken
        # under its lock, so two referees saving at once never get the same number.
        lock_tournament(table.round.tournament_id)
        table = _lock(table)
        done = already_stored(table, client_id)
        if done is not None:
            return done
        _allowed(table, facts, director=director)
        if replaces is not None:
            if replaces.table_id != table.pk:
                raise DomainError(_("A replacement belongs to the same table."))
            _revoke(replaces, user, revoke_reason, director=director)
        decision = decide(table, facts)
        facts = decision.facts
        penalty = Penalty(
            table=table,
            tournament_id=table.round.tournament_id,
            number=next_number(table.round.tournament_id),
            offender=decision.offender.entry,
            entered_by=user,
            replaces=replaces,
            client_id=client_id,
            **{field: getattr(facts, name) for name, field in STORED_AS.items()},
        )
        penalty.p1, penalty.p2, penalty.p3, penalty.p4 = decision.points[:4]
        penalty.p5 = decision.points[4] if len(decision.points) == 5 else None
        entry = None
        if sign:
            penalty.referee, penalty.signed_at = user, timezone.now()
            entry = _disqualified_entry(penalty)
        stamp(penalty, user, event("penalty-replaces-revoked") if replaces else "")
        penalty.save()
        _apply_sanction(penalty, entry, user)
        results.restore_table(table)
        return penalty


def sign(penalty: Penalty, user, *, director: bool) -> Penalty:
    """A referee signs a draft (TSR 8.2.2): from now on it counts."""
    with transaction.atomic():
        _lock(penalty.table)
        penalty = Penalty.objects.select_related("table__round__tournament").get(pk=penalty.pk)
        may_write(penalty.table, director=director)
        if penalty.revoked_at is not None:
            raise DomainError(_("A revoked penalty cannot be signed."))
        if penalty.signed_at is not None:
            raise DomainError(_("This penalty has already been signed."))
        # The sheet may have changed since the draft was saved: sign only what still fits.
        try:
            decision = decide(penalty.table, facts_of(penalty))
        except DomainError as exc:
            raise DomainError(
                _(
                    "The sheet changed since this penalty was entered: %(problem)s Revoke it and "
                    "enter the decision again."
                )
                % {"problem": exc.message}
            ) from exc
        if list(decision.points) != penalty.points:
            raise DomainError(
                _(
                    "The sheet changed since this penalty was entered: it would now give "
                    "%(points)s. Revoke it and enter the decision again."
                )
                % {"points": signed_points(decision.points)}
            )
        penalty.referee, penalty.signed_at = user, timezone.now()
        entry = _disqualified_entry(penalty)
        stamp(penalty, user, event("penalty-signed"))
        penalty.save(update_fields=["referee", "signed_at", "entry_status_before"])
        _apply_sanction(penalty, entry, user)
        results.restore_table(penalty.table)
        return penalty


def revoke(penalty: Penalty, user, reason: str, *, director: bool) -> Penalty:
    """The Schiedsgericht overrules a decision: the penalty stops counting, stays on record."""
    with transaction.atomic():
        _lock(penalty.table)
        return _revoke(penalty, user, reason, director=director)


def _revoke(penalty: Penalty, user, reason: str, *, director: bool) -> Penalty:
    penalty = Penalty.objects.select_related("table__round__tournament", "offender").get(
        pk=penalty.pk
    )
    may_write(penalty.table, director=director)
    if not reason.strip():
        raise DomainError(_("Revoking a penalty needs a reason."))
    if penalty.revoked_at is not None:
        raise DomainError(_("This penalty has already been revoked."))
    counted = penalty.counts
    penalty.revoked_by, penalty.revoked_at = user, timezone.now()
    penalty.revoke_reason = reason.strip()
    stamp(penalty, user, reason.strip())
    penalty.save(update_fields=["revoked_by", "revoked_at", "revoke_reason"])
    if counted and penalty.category == Category.DISQUALIFICATION:
        _readmit(penalty, user, reason)
    results.restore_table(penalty.table)
    return penalty


def _disqualified_entry(penalty: Penalty) -> Entry | None:
    """For a disqualification about to be signed: the entry, locked, and its status kept on
    the penalty (to go back to if the decision is revoked)."""
    if penalty.category != Category.DISQUALIFICATION:
        return None
    entry = lock(Entry.objects).get(pk=penalty.offender_id)
    if entry.status != EntryStatus.DISQUALIFIED:
        penalty.entry_status_before = entry.status
    return entry


def _apply_sanction(penalty: Penalty, entry: Entry | None, user) -> None:
    """A signed disqualification marks the entry: out of every later draw, listed last."""
    if entry is not None and entry.status != EntryStatus.DISQUALIFIED:
        entry.status = EntryStatus.DISQUALIFIED
        stamp(entry, user, event("disqualified-by-referee", id=penalty.number))
        entry.save(update_fields=["status"])


def _readmit(penalty: Penalty, user, reason: str) -> None:
    """No disqualification counts any more: the entry goes back to the status the last
    referee disqualification took it from (a director's own disqualification stays)."""
    entry = lock(Entry.objects).get(pk=penalty.offender_id)
    disqualifications = Penalty.objects.filter(offender=entry, category=Category.DISQUALIFICATION)
    if disqualifications.counting().exists() or entry.status != EntryStatus.DISQUALIFIED:
        return
    origin = disqualifications.exclude(entry_status_before="").order_by("-pk").first()
    if origin is not None:
        entry.status = origin.entry_status_before
        stamp(entry, user, event("disqualification-revoked", reason=reason.strip()))
        entry.save(update_fields=["status"])
