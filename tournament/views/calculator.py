"""Spielwert-Rechner: tick the facts of a game, see winner, value and the row to write."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from ..forms.calculator import calculator_context, calculator_template
from ..models import Tournament


def calculator(request: HttpRequest, slug: str | None = None) -> HttpResponse:
    tournament = None
    if slug is not None:
        tournament = get_object_or_404(Tournament, slug=slug, is_public=True)
    context = calculator_context(request.GET, tournament)
    context["action"] = request.path
    htmx = getattr(request, "htmx", None)  # set by django-htmx's middleware
    template = calculator_template(htmx.target if htmx else None, htmx=bool(htmx), panel=False)
    return render(request, template, context)
