"""For the director's registration pages: the count of registrations awaiting approval
(``{% load registrations %}{% pending_registrations tournament as pending %}``) and whether
e-mails actually leave the server (``{% mail_is_sent as sent %}``)."""

from django import template

from ..models import RegistrationState, Tournament
from ..tasks.mail import leaves_server

register = template.Library()


@register.simple_tag
def pending_registrations(tournament: Tournament) -> int:
    """How many registrations wait for the director's approval; only asked in approval mode
    (one query, on every manage page of such a tournament)."""
    if not tournament.registration_approval:
        return 0
    return tournament.registrations.filter(state=RegistrationState.PENDING).count()


@register.simple_tag
def mail_is_sent() -> bool:
    """False when no mail server is set up (no EMAIL_HOST): the players' personal links are
    then only printed in the server's terminal, which the director must know."""
    return leaves_server()
