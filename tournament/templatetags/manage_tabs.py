"""Which tab of the director's pages the current page belongs to, for the tab bar:
``{% load manage_tabs %}{% current_tab as here %}``."""

from django import template

register = template.Library()

# The first words of the manage URL names, and their tab.
TAB_OF_PREFIX = [
    ("entry-", "players"),
    ("player-", "players"),
    ("registration-", "registrations"),
    ("import", "import"),
    ("round-", "rounds"),
    ("board", "rounds"),
    ("sheet-", "rounds"),
    ("print-pack", "rounds"),
    ("standings", "standings"),
    ("statistics", "statistics"),
    ("results-export", "standings"),
    ("referees", "referee-accounts"),
    ("referee", "referee-desk"),
    ("call-done", "referee-desk"),
    ("penalty-", "penalties"),
    ("projector", "projector"),
    ("device-", "devices"),
    ("tournament-edit", "settings"),
    ("prize", "prizes"),
]


@register.simple_tag(takes_context=True)
def current_tab(context) -> str:
    request = context.get("request")
    match = getattr(request, "resolver_match", None)
    name = match.url_name if match is not None else None
    if not name:
        return ""
    return next((tab for prefix, tab in TAB_OF_PREFIX if name.startswith(prefix)), "")
