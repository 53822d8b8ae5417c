"""The online registrations as the pages and mails read them: the waiting list and a
registration's place on it."""

from __future__ import annotations

from ..models import Registration, RegistrationState, Tournament


def waiting_list(tournament: Tournament):
    return tournament.registrations.filter(state=RegistrationState.WAITING).order_by("position")


def waiting_position(registration: Registration) -> int | None:
    """1 for the first on the waiting list; None when not waiting."""
    if registration.state != RegistrationState.WAITING:
        return None
    ahead = waiting_list(registration.tournament).filter(position__lt=registration.position)
    return ahead.count() + 1
