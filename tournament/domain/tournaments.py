"""A tournament's own writes: created by a director, its settings changed (the stored results
of closed rounds computed anew when the rules change), its projector link renewed."""

from django.db import transaction

from ..models import Tournament
from ..models.audit import stamp
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
