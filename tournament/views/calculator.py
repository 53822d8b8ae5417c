"""Spielwert-Rechner: tick the facts of a game, see winner, value and the row to write."""

from django.shortcuts import get_object_or_404, render

from scoring.errors import InvalidFacts
from scoring.game import evaluate, parse_facts
from scoring.profiles import PROFILES, get_profile

from ..forms.calculator import GameValueForm
from ..messages import invalid_facts_message
from ..models import Tournament


def _calculate(form: GameValueForm, profile):
    if not form.is_valid():
        return None, None
    try:
        facts = parse_facts(form.facts())
    except InvalidFacts as exc:
        return None, invalid_facts_message(exc.code, exc.params)
    result = evaluate(profile, facts)
    row = [
        {"position": p, "points": v, "sits": p == facts.sitter, "re": p in facts.re}
        for p, v in enumerate(result.points, start=1)
    ]
    return {"result": result, "row": row}, None


def calculator(request, slug=None):
    tournament = None
    if slug is not None:
        tournament = get_object_or_404(Tournament, slug=slug, is_public=True)
    return calculator_page(request, tournament)


def calculator_page(request, tournament=None, *, initial=None, back_url=None):
    """The calculator with the tournament's rule profile (or a profile to choose);
    ``initial`` presets the facts (e.g. table size and dealer from a list keeper's table)."""
    data = request.GET if "re_eyes" in request.GET else None
    form = GameValueForm(data, initial=initial)
    if tournament is not None:
        form.fields.pop("profile")
        profile = tournament.profile
    else:
        key = form.data.get("profile", "ddv") if data else "ddv"
        profile = get_profile(key if key in PROFILES else "ddv")
    calculation, error = _calculate(form, profile) if data else (None, None)
    context = {
        "form": form,
        "tournament": tournament,
        "profile": profile,
        "calculation": calculation,
        "error": error,
        "back_url": back_url,
    }
    if request.htmx:
        return render(request, "tournament/partials/calculator_result.html", context)
    return render(request, "tournament/calculator.html", context)
