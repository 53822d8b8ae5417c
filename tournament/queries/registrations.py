"""The online registrations as the pages, the mails and the verbs read them: whether
registering is open (:func:`phase`), the places taken and free, the waiting list and a
registration's place on it, who this tournament barred, and what the player may still change
or do on the personal link. The verbs are in :mod:`tournament.domain.registrations`."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..models import (
    Entry,
    EntryStatus,
    Registration,
    RegistrationState,
    Tournament,
    TournamentStatus,
)
from ..models.names import club_key, name_key
from ..models.registration import OPEN_STATES
from .players import PlayerData

# What the public page says about registration at a moment.
OFF, NOT_YET, OPEN, CLOSED, PAUSED = "off", "not-yet", "open", "closed", "paused"


def phase(tournament: Tournament, now: datetime | None = None) -> str:
    """Whether players can register now: off (not offered), not yet, open, paused (the
    director's switch, e.g. during a flood of junk registrations), or closed (the closing
    time has passed or the tournament has begun)."""
    if not tournament.registration_open:
        return OFF
    now = now or timezone.now()
    if tournament.status != TournamentStatus.PLANNED or tournament.rounds.exists():
        return CLOSED
    if tournament.registration_paused:
        closes = tournament.registration_closes_at
        return CLOSED if closes and now >= closes else PAUSED
    if tournament.registration_opens_at and now < tournament.registration_opens_at:
        return NOT_YET
    if tournament.registration_closes_at and now >= tournament.registration_closes_at:
        return CLOSED
    return OPEN


def places_taken(tournament: Tournament) -> int:
    """Active entries plus registrations awaiting approval."""
    entries = tournament.entries.filter(status=EntryStatus.ACTIVE).count()
    return entries + tournament.registrations.filter(state=RegistrationState.PENDING).count()


def places_free(tournament: Tournament) -> int | None:
    """Free places, or None without a limit."""
    if tournament.registration_capacity is None:
        return None
    return max(0, tournament.registration_capacity - places_taken(tournament))


def waiting_list(tournament: Tournament):
    return tournament.registrations.filter(state=RegistrationState.WAITING).order_by("position")


def waiting_position(registration: Registration) -> int | None:
    """1 for the first on the waiting list; None when not waiting."""
    if registration.state != RegistrationState.WAITING:
        return None
    ahead = waiting_list(registration.tournament).filter(position__lt=registration.position)
    return ahead.count() + 1


class Typed(Protocol):
    """What a player typed into the form (``tournament.domain.registrations.Details``)."""

    @property
    def first_name(self) -> str: ...

    @property
    def last_name(self) -> str: ...

    @property
    def club(self) -> str: ...

    @property
    def player_data(self) -> PlayerData: ...

    @property
    def ddv_number(self) -> str: ...

    @property
    def email(self) -> str: ...


def _same_person(details: Typed, first: str, last: str, club: str, ddv_number: str) -> bool:
    """The rule of ``find_player``: the same name (umlaut spellings, case, accents) is the
    same person unless both give a club or both a DDV number, and those differ."""
    if name_key(details.first_name, details.last_name) != name_key(first, last):
        return False
    if details.ddv_number and ddv_number and details.ddv_number != ddv_number:
        return False
    mine, theirs = club_key(details.club), club_key(club)
    return not (mine and theirs and mine != theirs)


def duplicate(tournament: Tournament, details: Typed, exclude: int | None = None) -> bool:
    """True when the person is already registered or entered (see :func:`_same_person`)."""
    others = tournament.registrations.filter(state__in=OPEN_STATES).exclude(
        entry__status=EntryStatus.WITHDRAWN
    )
    entries = tournament.entries.exclude(status=EntryStatus.WITHDRAWN).select_related(
        "player", "registration"
    )
    if exclude is not None:
        others = others.exclude(pk=exclude)
        entries = entries.exclude(registration__pk=exclude)
    if any(_same_person(details, r.first_name, r.last_name, r.club, r.ddv_number) for r in others):
        return True
    return any(_same_person(details, *_identity(entry)) for entry in entries)


def entry_of(tournament: Tournament, details: Typed) -> Entry | None:
    """The tournament's entry of the person ``details`` names (see :func:`_same_person`),
    the withdrawn ones last."""
    same = [
        entry
        for entry in tournament.entries.select_related("player", "registration").order_by("pk")
        if _same_person(details, *_identity(entry))
    ]
    same.sort(key=lambda entry: entry.status == EntryStatus.WITHDRAWN)
    return same[0] if same else None


def _identity(entry: Entry) -> tuple[str, str, str, str]:
    """Name, club and DDV member number of an entry's player; for an unverified one the
    member number its registration typed (the player holds none)."""
    player = entry.player
    number = player.ddv_number
    if player.unverified:
        try:  # selected with the entry
            number = entry.registration.ddv_number
        except Registration.DoesNotExist:
            number = ""
    return player.first_name, player.last_name, player.club, number


@dataclass(frozen=True)
class Barred:
    """How this tournament recognises the people it disqualified (TSR: a disqualified player
    takes no further part in the tournament): their names (spelled any way, whatever club is
    typed), DDV member numbers (the player's and the typed one) and e-mail addresses."""

    names: frozenset[str]
    numbers: frozenset[str]
    emails: frozenset[str]

    def bars(self, details: Typed) -> bool:
        return (
            details.player_data.name_key in self.names
            or (details.ddv_number and details.ddv_number in self.numbers)
            or (details.email and details.email.casefold() in self.emails)
        ) is True


def barred(tournament: Tournament) -> Barred:
    """The marks of the tournament's disqualified players (three queries, whatever the
    field)."""
    out = tournament.entries.filter(status=EntryStatus.DISQUALIFIED)
    players = out.values_list("player__name_key", "player__ddv_number")
    typed = Registration.objects.filter(entry__in=out).values_list(
        "first_name", "last_name", "ddv_number", "email"
    )
    names, numbers, emails = set(), set(), set()
    for key, number in players:
        names.add(key)
        numbers.add(number)
    for first, last, number, email in typed:
        names.add(name_key(first, last))
        numbers.add(number)
        emails.add(email.casefold())
    return Barred(frozenset(names), frozenset(numbers - {""}), frozenset(emails - {""}))


def name_lock(registration: Registration) -> str | None:
    """Why the player may not change name, club and DDV member number on the personal link
    any more, or None while they may. Locked once the first round is drawn (table plan,
    standings and projector show the name: only the director changes it then, with its
    history) and once a director accepted the identity (the entry is then the shared
    player's, see :func:`accept_identity`)."""
    tournament = registration.tournament
    if tournament.rounds.exists():
        return _(
            "The first round is drawn: your name and club can only be changed by the "
            "tournament director now."
        )
    entry = registration.entry
    if entry is None:
        return None
    if not entry.player.unverified:
        return _(
            "The tournament director has confirmed your name, club and DDV number: please "
            "ask them to correct them."
        )
    elsewhere = Entry.objects.filter(player_id=entry.player_id).exclude(tournament=tournament)
    if elsewhere.exists():
        return _(
            "Your name, club and DDV number are also in other tournaments' "
            "results: please ask the tournament director to correct them."
        )
    return None


TEAM_LOCKED = gettext_lazy(
    "The first round is drawn: your team can only be changed by the tournament director now."
)


def team_locked(registration: Registration) -> bool:
    """A team counts in the team standings from the first round on: once a round is drawn
    only the director changes it (with its history), never the player's link."""
    return registration.tournament.rounds.exists()


def name_changeable(registration: Registration) -> bool:
    """May the player change name, club and DDV number on the personal link?"""
    return name_lock(registration) is None


def needs_acceptance(registration: Registration) -> bool:
    """A confirmed registration whose player is still only what was typed online."""
    entry = registration.entry
    return (
        registration.state == RegistrationState.CONFIRMED
        and entry is not None
        and entry.player.unverified
    )


def can_check_in(registration: Registration) -> bool:
    entry = registration.entry
    return bool(
        registration.tournament.checkin_open
        and registration.state == RegistrationState.CONFIRMED
        and entry is not None
        and entry.status == EntryStatus.ACTIVE
    )
