"""``{% publishing_status tournament %}``: the line about the results service on the
director's pages of a tournament (tournament/publishing/status.py)."""

from django import template

from ..publishing.status import status

register = template.Library()


@register.inclusion_tag("tournament/manage/publishing_status.html")
def publishing_status(tournament, *, with_button: bool = True) -> dict:
    return {"tournament": tournament, "status": status(tournament), "with_button": with_button}
