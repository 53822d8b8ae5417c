"""A tournament's own writes: created by a director, its settings changed (the stored results
of closed rounds computed anew when the rules change), its projector link renewed, its hidden
standings revealed after the prize ceremony."""

from django.db import transaction
from django.utils.translation import gettext as _

from ..errors import DomainError
from ..models import Tournament
from ..models.audit import stamp
from ..models.locks import lock_tournament
from ..models.tournament import new_projector_token
from . import results

# The settings the stored results of closed rounds are computed with (scoring/results.py).
SCORING_SETTINGS = ("rule_profile", "custom_base", "custom_overrides")


@transaction.atomic
def create_tournament(user, tournament: Tournament) -> Tournament:
    """Save a new tournament and make its creator one of its directors."""
    stamp(tournament, user)
    tournament.save()
    tournament.directors.add(user)
    return tournament


@transaction.atomic
def update_tournament(tournament: Tournament, user) -> Tournament:
    """Save a director's changes to a tournament's settings, naming them in its history; a
    changed rule profile computes the stored results of the closed rounds anew."""
    before = Tournament.objects.filter(pk=tournament.pk).values(*SCORING_SETTINGS).first()
    stamp(tournament, user)
    tournament.save()
    if before and any(before[name] != getattr(tournament, name) for name in SCORING_SETTINGS):
        results.store_rounds(tournament.rounds.all())
    return tournament


def renew_projector_link(tournament: Tournament, user=None) -> Tournament:
    """A new secret for the projector link: the old link stops working at once (a screen
    that still shows it keeps its last data and says it is offline)."""
    tournament.projector_token = new_projector_token()
    stamp(tournament, user)
    tournament.save(update_fields=["projector_token"])
    return tournament


@transaction.atomic
def reveal_standings(tournament: Tournament, user) -> Tournament:
    """After the prize ceremony: the rounds the director hid (``hide_standings_from``) show
    on every public page, file and the results service again (issue 38). The save moves the
    tournament's versions, so every cached public page and file is made anew; the history
    names who revealed them. Refused when nothing is hidden (a second click)."""
    locked = lock_tournament(tournament.pk)
    if locked is None or locked.hide_standings_from is None:
        raise DomainError(_("Nothing is hidden: the public sees the whole standings already."))
    locked.hide_standings_from = None
    stamp(locked, user)
    locked.save(update_fields=["hide_standings_from"])
    tournament.hide_standings_from = None
    return locked
