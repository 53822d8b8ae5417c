"""The statistics pages' pieces: where a figure's games were played (``{% games refs %}``)
and shares as percentages (``{{ record.rate|percent }}``)."""

from django import template
from django.urls import reverse
from django.utils.formats import number_format

from scoring.kinds import Kind
from scoring.statistics import GameRef, Score

from ..models.sheet import KIND_LABELS

register = template.Library()


@register.filter
def percent(rate: float | None) -> str:
    """0.5714 -> "57 %"; nothing decided yet -> "–"."""
    if rate is None:
        return "–"
    return f"{round(rate * 100)} %"


@register.filter
def decimal1(value: float | None) -> str:
    """A mean with one digit, in the reader's format (German 4,3)."""
    if value is None:
        return "–"
    return number_format(round(value, 1), 1)


def where(ref: GameRef, context) -> dict:
    """One game of a figure as the page lists it; the director's pages link its sheet."""
    tournaments = context.get("stats_tournaments") or {}
    tournament = tournaments.get(ref.tournament)
    link = ""
    if context.get("director") and tournament is not None:
        link = reverse("manage:sheet-desk", args=[tournament.slug, ref.round, ref.table])
    return {
        "round": ref.round,
        "table": ref.table,
        "game": ref.game,
        "tournament": tournament.name if tournament is not None and len(tournaments) > 1 else "",
        "link": link,
    }


@register.inclusion_tag("tournament/statistics/_games.html", takes_context=True)
def games(context, refs, count=None):
    """``count`` (by default the number of games) that opens the list of its games."""
    refs = list(refs)
    return {
        "count": len(refs) if count is None else count,
        "refs": [where(r, context) for r in refs],
    }


@register.simple_tag(takes_context=True)
def game_at(context, ref: GameRef) -> dict:
    """One game's place, for a sentence: ``{% game_at ref as at %}``."""
    return where(ref, context)


@register.inclusion_tag("tournament/statistics/_games.html", takes_context=True)
def penalty_games(context, scores: list[Score], total: int):
    """The penalty points, opening the games they were given in."""
    return {"count": total, "refs": [where(score.ref, context) for score in scores]}


@register.filter
def kind_label(kind: Kind) -> str:
    """The kind's words, as on the keeper's page and in the print pack."""
    return str(KIND_LABELS[Kind(kind)])
