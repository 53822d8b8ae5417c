"""Spielwert-Rechner: tick the facts of a game, see winner, value and the row to write."""

from django.shortcuts import get_object_or_404, render

from scoring.errors import InvalidFacts
from scoring.game import evaluate, parse_facts
from scoring.profiles import PROFILES, get_profile

from ..findings import invalid_facts_message
from ..forms.calculator import GameValueForm
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
    solo = facts.kind == "solo"
    return {
        "result": result,
        "row": row,
        "solo": solo,
        "soloist": facts.re[0] if solo and facts.re else None,
        "points": list(result.points),
    }, None


def calculator(request, slug=None):
    tournament = None
    if slug is not None:
        tournament = get_object_or_404(Tournament, slug=slug, is_public=True)
    return calculator_page(request, tournament)


def calculator_page(
    request, tournament=None, *, initial=None, back_url=None, action=None, take=None, panel=False
):
    """The calculator with the tournament's rule profile (or a profile to choose);
    ``initial`` presets the facts (e.g. table size and dealer from a list keeper's table).
    ``take(calculation)`` gives what the "use it" button puts into the keeper's game form;
    ``panel`` answers the keeper page's request for the calculator in place."""
    data = request.GET if "re_eyes" in request.GET else None
    form = GameValueForm(data, initial=initial)
    if panel and initial and initial.get("table_size") == 4:
        # A list keeper's 4-table has no position 5 to tick.
        for name in ("re", "dealer"):
            form.fields[name].choices = [c for c in form.fields[name].choices if c[0] != "5"]
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
        "action": action or request.path,
        "panel": panel,
        "take": take(calculation) if take and calculation else None,
    }
    target = request.htmx.target if request.htmx else None
    if panel and target == "calculator-panel":
        return render(request, "tournament/sheet/_calculator_panel.html", context)
    if request.htmx:
        return render(request, "tournament/sheet/_calculator_result.html", context)
    return render(request, "tournament/calculator.html", context)
