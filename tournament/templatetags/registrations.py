"""The count of registrations awaiting approval, for the manage tabs:
``{% load registrations %}{% pending_registrations tournament as pending %}``."""

from django import template

from ..models import RegistrationState, Tournament

register = template.Library()


@register.simple_tag
def pending_registrations(tournament: Tournament) -> int:
    """How many registrations wait for the director's approval; only asked in approval mode
    (one query, on every manage page of such a tournament)."""
    if not tournament.registration_approval:
        return 0
    return tournament.registrations.filter(state=RegistrationState.PENDING).count()
