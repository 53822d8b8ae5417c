"""Online registration: registering, the waiting list, approval, cancelling, changing one's
details and checking in by the personal link (deleting personal data afterwards:
:mod:`tournament.domain.personal_data`).

Places: a tournament with online registration has ``registration_capacity`` places. A place is
taken by every active entry (also those the director typed in) and every registration awaiting
approval. A registration within the places is confirmed at once (it gets its entry and start
number) or, in approval mode, waits for the director; beyond them it goes on the waiting list.
Whenever a place comes free before the first draw, the first on the waiting list moves up
(:func:`fill_places`). Messages to the player go through a :class:`Mailer` after the
transaction has committed; without one (a command) nothing is sent. What the pages read
(the phase, the places, what the player may still change) is in
:mod:`tournament.queries.registrations`.
"""

from dataclasses import dataclass
from datetime import datetime
from itertools import takewhile
from typing import Protocol

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..errors import DomainError
from ..models import (
    Entry,
    EntryStatus,
    Player,
    Registration,
    RegistrationState,
    Tournament,
)
from ..models.audit import PLAYER, event, role_of, stamp
from ..models.locks import lock, lock_tournament
from ..models.registration import OPEN_STATES
from ..permissions import changeable_players
from ..queries.players import (
    KnownPlayers,
    PlayerData,
    ddv_number_conflict,
    directors_tournaments,
    find_player,
    known_tournaments,
)
from ..queries.registrations import (
    OPEN,
    PAUSED,
    TEAM_LOCKED,
    barred,
    can_check_in,
    duplicate,
    entry_of,
    name_lock,
    needs_acceptance,
    phase,
    places_free,
    team_locked,
    waiting_list,
)
from . import bulk, player_import
from .entries import (
    EntryAttributes,
    already_registered_error,
    check_birth_year,
    conflict_error,
    edit_entry,
    plausible_birth_year,
    register,
    set_attributes,
    set_checked_in,
    set_publish,
    set_status,
)


class Mailer(Protocol):
    def send(self, registration: Registration, kind: str) -> None:
        """Send the message ``kind`` (see tournament/tasks/mail.py) to the registration's player."""


@dataclass(frozen=True)
class Details:
    """What a player types into the form."""

    first_name: str
    last_name: str
    club: str = ""
    ddv_number: str = ""
    team_name: str = ""
    email: str = ""
    language: str = "de"
    # The player's consent to be named on the public pages (their own tick, default off).
    publish: bool = False
    # Optional, for the prize categories (issue 38): carried to the entry.
    birth_year: int | None = None
    sex: str = ""

    @property
    def player_data(self) -> PlayerData:
        return PlayerData(self.first_name, self.last_name, self.club, self.ddv_number)


def _lock(tournament: Tournament) -> Tournament:
    """The tournament's row locked (first in the lock order); it must exist."""
    locked = lock_tournament(tournament.pk)
    if locked is None:
        raise Tournament.DoesNotExist
    return locked


def _refuse_barred(tournament: Tournament, details: Details) -> None:
    if barred(tournament).bars(details):
        raise DomainError(
            _("%(name)s cannot register for this tournament: please ask the tournament director.")
            % {"name": f"{details.first_name} {details.last_name}".strip()}
        )


def _check_email_share(tournament: Tournament, email: str, exclude: int | None = None) -> None:
    """Refuse more than ``REGISTRATIONS_PER_EMAIL`` open registrations with one e-mail address
    for a tournament (a couple may share one; a flood with one address fills nothing)."""
    if not email:
        return
    same = tournament.registrations.filter(state__in=OPEN_STATES, email__iexact=email.strip())
    if exclude is not None:
        same = same.exclude(pk=exclude)
    if same.count() >= settings.REGISTRATIONS_PER_EMAIL:
        raise DomainError(
            ngettext(
                "This e-mail address is already used for %(count)s registration for this "
                "tournament. Please register further players with their own address, or ask "
                "the tournament director.",
                "This e-mail address is already used for %(count)s registrations for this "
                "tournament. Please register further players with their own address, or ask "
                "the tournament director.",
                settings.REGISTRATIONS_PER_EMAIL,
            )
            % {"count": settings.REGISTRATIONS_PER_EMAIL}
        )


def _give_place(registration: Registration, *, approved: bool, user=None) -> None:
    """Confirm ``registration``: give it an entry of its own and link it. Inside the caller's
    transaction; refused (DomainError) for a player this tournament has disqualified or one
    already entered.

    The public form is anybody's: what it says makes a new, unverified player holding only
    the typed name and club, matched to nobody in the shared player database (issue 34). The
    DDV member number stays on the registration until a director accepts it
    (:func:`accept_identity`)."""
    tournament = registration.tournament
    if tournament.registration_approval and not approved:
        registration.state = RegistrationState.PENDING
        return
    details = _details_of(registration)
    _refuse_barred(tournament, details)
    previous = entry_of(tournament, details)
    if previous is not None and previous.status == EntryStatus.ACTIVE:
        raise DomainError(_("Somebody of that name is already registered for this tournament."))
    if previous is not None and not previous.player.unverified:
        previous = None  # somebody the director entered, withdrawn: not theirs to take over
    if previous is not None:
        # The same person came back after a cancellation or a withdrawal: their old entry and
        # start number again. An older registration still pointing to it is over.
        for stale in Registration.objects.filter(entry=previous).exclude(pk=registration.pk):
            if stale.state in OPEN_STATES:
                stale.state = RegistrationState.CANCELLED
            stale.entry = None
            stamp(stale, user, event("registered-again-online"), role=_role(user)).save()
        entry = set_status(
            previous, EntryStatus.ACTIVE, user, event("registered-again-online"), role=_role(user)
        )
        # This time's answer counts, not the one of the registration before.
        entry = set_publish(entry, registration.publish, user, role=_role(user))
        entry = _carry_attributes(registration, entry, user)
    else:
        entry = register(
            tournament,
            details.player_data,
            director=user,
            team_name=details.team_name,
            role=_role(user),
            unverified=True,
            publish=registration.publish,
            attributes=EntryAttributes(
                birth_year=plausible_birth_year(registration.birth_year, tournament),
                sex=registration.sex,
            ),
        )
    registration.entry = entry
    registration.state = RegistrationState.CONFIRMED


def _carry_attributes(registration: Registration, entry: Entry, user) -> Entry:
    """What the player said for the prize categories (year of birth, sex) onto their entry;
    what they left empty keeps what the office set."""
    attributes = EntryAttributes(
        birth_year=plausible_birth_year(registration.birth_year, entry.tournament)
        or entry.birth_year,
        sex=registration.sex or entry.sex,
        guest=entry.guest,
        newcomer=entry.newcomer,
    )
    return set_attributes(entry, attributes, user, role=_role(user))


def _details_of(registration: Registration) -> Details:
    return Details(
        registration.first_name,
        registration.last_name,
        registration.club,
        registration.ddv_number,
        registration.team_name,
        registration.email,
        registration.language,
        registration.publish,
        registration.birth_year,
        registration.sex,
    )


def submit(
    tournament: Tournament,
    details: Details,
    *,
    consent: str,
    mail: Mailer | None = None,
    now: datetime | None = None,
) -> Registration:
    """A player registers on the public form. Refused with a message when registration is not
    open or somebody of that name is already registered."""
    check_birth_year(details.birth_year, tournament)
    with transaction.atomic():
        tournament = _lock(tournament)
        current = phase(tournament, now)
        if current == PAUSED:
            raise DomainError(
                _("Registration for this tournament is paused. Please try again later.")
            )
        if current != OPEN:
            raise DomainError(_("Registration for this tournament is not open."))
        _check_email_share(tournament, details.email)
        _refuse_barred(tournament, details)
        if duplicate(tournament, details):
            raise DomainError(
                _(
                    "%(name)s is already registered for this tournament. Registered online? "
                    "The e-mail you got then has your personal link (or have it sent again). "
                    "Otherwise please ask the tournament director."
                )
                % {"name": f"{details.first_name} {details.last_name}".strip()}
            )
        highest = tournament.registrations.aggregate(m=Max("position"))["m"] or 0
        registration = Registration(
            tournament=tournament,
            first_name=details.first_name,
            last_name=details.last_name,
            club=details.club,
            ddv_number=details.ddv_number,
            team_name=details.team_name,
            email=details.email,
            language=details.language,
            consent=consent,
            publish=details.publish,
            birth_year=details.birth_year,
            sex=details.sex,
            position=highest + 1,
        )
        # Those waiting come first: a place that came free (a disqualification, a merge)
        # goes to them before anybody new.
        fill_places(tournament, mail=mail)
        free = places_free(tournament)
        if (free is None or free > 0) and not waiting_list(tournament).exists():
            _give_place(registration, approved=False)
        else:
            registration.state = RegistrationState.WAITING
        stamp(registration, None, event("registered-online"), role=PLAYER).save()
        if mail:
            mail.send(registration, "registered")
    return registration


def fill_places(
    tournament: Tournament,
    *,
    user=None,
    mail: Mailer | None = None,
    most: int | None = None,
) -> list:
    """Move the first on the waiting list up while places are free, before the first draw
    (at ``most`` of them). Inside a transaction that holds the tournament's lock. Returns
    those moved up."""
    if tournament.registration_capacity is None or tournament.rounds.exists():
        return []
    moved: list[Registration] = []
    # The ids first, each registration when its turn comes: a long waiting list is not
    # loaded whole for the one place that came free.
    for pk in list(waiting_list(tournament).values_list("pk", flat=True)):
        if not places_free(tournament) or (most is not None and len(moved) >= most):
            break
        registration = Registration.objects.get(pk=pk)
        registration.tournament = tournament
        try:
            with transaction.atomic():
                _give_place(registration, approved=False, user=user)
                stamp(registration, user, event("moved-up"), role=_role(user))
                registration.save()
        except DomainError:
            # Cannot have a place (a member number that became somebody else's, a player
            # disqualified meanwhile): stays waiting for the director, the next one moves up.
            registration.refresh_from_db()
            continue
        moved.append(registration)
        if mail:
            mail.send(registration, "moved-up")
    return moved


def _role(user) -> str:
    return PLAYER if user is None else ""


def _locked(registration: Registration) -> Registration:
    _lock(registration.tournament)
    return lock(Registration.objects).select_related("tournament").get(pk=registration.pk)


def cancel(registration: Registration, *, user=None, mail: Mailer | None = None) -> Registration:
    """The player (no ``user``) or a director cancels a registration. A confirmed one's entry
    is withdrawn (its start number stays reserved); the freed place goes to the waiting
    list. Refused once the first round is drawn: then only the director withdraws."""
    with transaction.atomic():
        registration = _locked(registration)
        tournament = registration.tournament
        if registration.state not in OPEN_STATES:
            raise DomainError(_("This registration is already cancelled."))
        if tournament.rounds.exists():
            raise DomainError(
                _("The tournament has begun: please tell the tournament director instead.")
                if user is None
                else _("The tournament has begun: withdraw the player on the players page.")
            )
        reason = event("cancelled-online" if user is None else "cancelled-by-director")
        if registration.entry is not None and registration.entry.status == EntryStatus.ACTIVE:
            set_status(registration.entry, EntryStatus.WITHDRAWN, user, reason, role=_role(user))
        registration.state = RegistrationState.CANCELLED
        stamp(registration, user, reason, role=_role(user)).save()
        if mail:
            mail.send(registration, "cancelled")
        fill_places(tournament, user=user, mail=mail)
    return registration


def approve(registration: Registration, user, *, mail: Mailer | None = None) -> Registration:
    """A director confirms a registration awaiting approval, or gives somebody on the waiting
    list a place now (also beyond the capacity: the director decides)."""
    with transaction.atomic():
        registration = _locked(registration)
        if registration.state not in (RegistrationState.PENDING, RegistrationState.WAITING):
            raise DomainError(_("Only registrations awaiting a place can be confirmed."))
        _give_place(registration, approved=True, user=user)
        stamp(registration, user, event("confirmed-by-director")).save()
        if mail:
            mail.send(registration, "confirmed")
    return registration


def decline(registration: Registration, user, *, mail: Mailer | None = None) -> Registration:
    """A director declines a registration awaiting approval; its place goes on."""
    with transaction.atomic():
        registration = _locked(registration)
        if registration.state != RegistrationState.PENDING:
            raise DomainError(_("Only registrations awaiting approval can be declined."))
        registration.state = RegistrationState.DECLINED
        stamp(registration, user, event("declined-by-director")).save()
        if mail:
            mail.send(registration, "declined")
        fill_places(registration.tournament, user=user, mail=mail)
    return registration


def move(registration: Registration, user, *, up: bool) -> Registration:
    """A director moves somebody one place up or down the waiting list."""
    with transaction.atomic():
        registration = _locked(registration)
        if registration.state != RegistrationState.WAITING:
            raise DomainError(_("Only registrations on the waiting list can be moved."))
        others = waiting_list(registration.tournament)
        if up:
            other = others.filter(position__lt=registration.position).last()
        else:
            other = others.filter(position__gt=registration.position).first()
        if other is None:
            return registration
        # Swap through a free position: (tournament, position) is unique.
        mine, theirs = registration.position, other.position
        highest = registration.tournament.registrations.aggregate(m=Max("position"))["m"]
        Registration.objects.filter(pk=other.pk).update(position=highest + 1)
        registration.position = theirs
        stamp(registration, user, event("moved-on-waiting-list")).save()
        other.position = mine
        stamp(other, user, event("moved-on-waiting-list")).save()
    return registration


# Registrations moved up from the waiting list in one write: 200 keep it to a fraction of a
# second (1,000 players imported at once: 0.12 s).
MOVE_UP_BATCH = 200


def _waiting_rows(waiting: list[Registration]) -> list[player_import.ImportRow]:
    return [
        player_import.ImportRow(
            line=r.position,
            first_name=r.first_name,
            last_name=r.last_name,
            club=r.club,
            team=r.team_name,  # the member number stays on the registration
            publish=r.publish,
        )
        for r in waiting
    ]


def _move_up_in_bulk(
    tournament: Tournament, user, mail: Mailer | None, stuck: set[int]
) -> list[Registration]:
    """Give the first on the waiting list their places as an import does: matched and
    numbered outside the transaction, written in bulk in one short one if nothing changed.
    Only those who simply get a new entry, in order up to the first who does not (a
    returning player, a member number of somebody else, approval mode): the caller moves that
    one up as before. ``stuck``: registrations that cannot have a place, left waiting.
    Returns those moved up (none: nothing written)."""
    tournament = Tournament.objects.get(pk=tournament.pk)
    if (
        tournament.registration_capacity is None
        or tournament.registration_approval
        or tournament.rounds.exists()
    ):
        return []
    free = places_free(tournament) or 0
    waiting = list(waiting_list(tournament).exclude(pk__in=stuck)[: min(free, MOVE_UP_BATCH)])
    out = barred(tournament)
    # Up to the first the tournament disqualified: the caller refuses that one by itself.
    waiting = list(takewhile(lambda r: not out.bars(_details_of(r)), waiting))
    rows = _waiting_rows(waiting)
    known = directors_tournaments(tournament)
    plan = player_import.prepare(tournament, rows, known, partial=True, online=True)
    chosen, rows = waiting[: len(plan.entries)], rows[: len(plan.entries)]
    if not chosen:
        return []
    with transaction.atomic():
        locked = _lock(tournament)
        now_waiting = waiting_list(locked).exclude(pk__in=stuck)[: len(chosen)]
        if (
            _waiting_rows(list(now_waiting)) != rows
            or (places_free(locked) or 0) < len(chosen)
            or locked.registration_approval
            or locked.rounds.exists()
            or barred(locked) != out
            or not player_import.unchanged(locked, plan, known, rows)
        ):
            return []
        player_import.write(locked, plan, user, _role(user))
        numbers = [number for _player, number, _team in plan.entries]
        entry_of = dict(
            locked.entries.filter(start_number__in=numbers).values_list("start_number", "pk")
        )
        for registration, number in zip(chosen, numbers, strict=True):
            registration.state = RegistrationState.CONFIRMED
            registration.entry_id = entry_of[number]
            if registration.birth_year is not None or registration.sex:
                # What the player said for the prize categories (no history: personal data,
                # left out of the entries' histories; the import's write moved the version).
                Entry.objects.filter(pk=registration.entry_id).update(
                    birth_year=registration.birth_year, sex=registration.sex
                )
        Registration.objects.bulk_update(chosen, ["state", "entry"])
        changed = Registration.objects.filter(pk__in=[r.pk for r in chosen]).values()
        reason = event("moved-up")
        bulk.history(Registration, changed, "~", user, role_of(user) if user else PLAYER, reason)
        for registration in chosen:
            if mail:
                mail.send(registration, "moved-up")
    return chosen


def after_places_changed(tournament: Tournament, *, user, mail: Mailer | None = None) -> list:
    """Call after a director withdrew a player or raised the capacity: fills free places from
    the waiting list. Those who simply get a new entry move up in bulk, up to
    :data:`MOVE_UP_BATCH` per short transaction (see :func:`_move_up_in_bulk`); anybody
    else one at a time in a transaction of their own, as before. So raising the places by
    hundreds never holds the write lock for long (one transaction of 98 s for 1,000 before);
    every step leaves a whole state (the first ones moved up, in order)."""
    moved: list[Registration] = []
    stuck: set[int] = set()
    while True:
        step = _move_up_in_bulk(tournament, user, mail, stuck)
        if not step:
            with transaction.atomic():
                step = fill_places(_lock(tournament), user=user, mail=mail, most=1)
                # Those it passed over stay waiting for the director: not tried again.
                passed = (
                    waiting_list(tournament).filter(position__lt=step[0].position) if step else []
                )
                stuck.update(r.pk for r in passed)
        if not step:
            return moved
        moved += step


def change_details(registration: Registration, details: Details) -> Registration:
    """The player changes their registration. Name and club of a confirmed registration
    change the player's entry too while :func:`name_lock` allows it; the DDV member number
    stays on the registration (see :func:`accept_identity`)."""
    check_birth_year(details.birth_year, registration.tournament)
    with transaction.atomic():
        registration = _locked(registration)
        if registration.state not in OPEN_STATES:
            raise DomainError(_("This registration is cancelled and cannot be changed."))
        if details.email.strip().casefold() != registration.email.casefold():
            _check_email_share(registration.tournament, details.email, exclude=registration.pk)
        if duplicate(registration.tournament, details, exclude=registration.pk):
            raise DomainError(_("Somebody of that name is already registered for this tournament."))
        entry = registration.entry
        renamed = details.player_data != _details_of(registration).player_data
        if entry is None or entry.status != EntryStatus.DISQUALIFIED:
            # Nobody turns into a disqualified player by changing their details.
            _refuse_barred(registration.tournament, details)
        lock = name_lock(registration)
        if renamed and lock is not None:
            raise DomainError(lock)
        if details.team_name.strip() != registration.team_name.strip() and team_locked(
            registration
        ):
            raise DomainError(TEAM_LOCKED)
        if entry is not None:
            player = entry.player
            first, last, club, number = (
                player.first_name,
                player.last_name,
                player.club,
                player.ddv_number,
            )
            if renamed:  # an unverified player: name and club as typed, no member number
                first, last, club = details.first_name, details.last_name, details.club
            edit_entry(
                entry,
                PlayerData(first, last, club, number),
                team_name=details.team_name,
                start_number=entry.start_number,
                user=None,
                reason=event("changed-online"),
                role=PLAYER,
            )
        if entry is not None:
            set_publish(entry, details.publish, None, role=PLAYER)
            attributes = EntryAttributes(
                birth_year=details.birth_year,
                sex=details.sex,
                guest=entry.guest,
                newcomer=entry.newcomer,
            )
            if (details.birth_year, details.sex) != (registration.birth_year, registration.sex):
                set_attributes(entry, attributes, None, event("changed-online"), role=PLAYER)
        for field in ("first_name", "last_name", "club", "ddv_number", "team_name"):
            setattr(registration, field, getattr(details, field))
        registration.email, registration.language = details.email, details.language
        registration.publish = details.publish
        registration.birth_year, registration.sex = details.birth_year, details.sex
        stamp(registration, None, event("changed-online"), role=PLAYER).save()
    return registration


def accept_identity(registration: Registration, user) -> Player:
    """A director accepts who a registration says it is: its entry becomes the shared
    player's as if the director had typed the registration in — the holder of its DDV
    member number when the name fits, else a player of the director's own tournaments by
    the import's rules (see ``find_player``), else the registration's own player, which
    then holds the member number. Refused with a message (nothing changed) for a member
    number of somebody with another name, or a player already entered here. Returns the
    player."""
    with transaction.atomic():
        registration = _locked(registration)
        tournament = registration.tournament
        if not needs_acceptance(registration) or registration.entry is None:
            raise DomainError(_("Only confirmed registrations not yet accepted can be accepted."))
        entry = lock(Entry.objects.select_related("player")).get(pk=registration.entry.pk)
        own = lock(Player.objects).get(pk=entry.player_id)
        data = _details_of(registration).player_data
        known = KnownPlayers(known_tournaments(user, tournament), keys=[data.name_key])
        player = find_player(data, known)
        if ddv_number_conflict(data, player):
            raise conflict_error(data)
        reason = event("identity-accepted")
        if player is None or player.pk == own.pk:
            own.unverified = False
            own.ddv_number = data.ddv_number
            stamp(own, user, reason)
            try:
                with transaction.atomic():
                    own.save()
            except IntegrityError:  # the number was given to somebody meanwhile
                raise conflict_error(data) from None
            return own
        twin = tournament.entries.filter(player=player).first()
        if twin is not None:
            raise already_registered_error(player, twin.start_number)
        entry.player = player
        stamp(entry, user, reason).save(update_fields=["player"])
        number_is_new = data.ddv_number and not player.ddv_number
        if number_is_new and changeable_players(user).filter(pk=player.pk).exists():
            # A player of the director's own tournaments without a number: it is theirs now
            # (in another director's tournaments too: then the administrator decides).
            player.ddv_number = data.ddv_number
            stamp(player, user, reason)
            try:
                with transaction.atomic():
                    player.save(update_fields=["ddv_number"])
            except IntegrityError:
                raise conflict_error(data) from None
        if not own.entries.exists():  # only ever this registration's: it goes
            stamp(own, user, event("replaced-by-player", id=player.pk, reason=reason)).delete()
    return player


def check_in(registration: Registration) -> Entry:
    """ "I am here" on the personal link, once the director has opened check-in."""
    if not can_check_in(registration) or registration.entry is None:
        raise DomainError(_("Check-in on this link is not open."))
    return set_checked_in(registration.entry, True, None, role=PLAYER)
