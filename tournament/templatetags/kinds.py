"""The kind letters in templates: ``{% load kinds %}{% kind_legend as legend %}``."""

from django import template

from scoring.kinds import GAME_KINDS, Kind

from ..models.sheet import legend

register = template.Library()


@register.simple_tag
def kind_legend(games_only: bool = False) -> str:
    """“N normal game, P Pflichtsolo, …, S penalty”; ``games_only`` leaves out the penalty
    (the desk grid takes games only)."""
    return legend(GAME_KINDS if games_only else tuple(Kind))
