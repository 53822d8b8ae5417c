"""``{% row_url "manage:entry-checkin" tournament.slug record.pk %}``: the URL of one row's
action, as ``{% url %}`` gives it, but reversed once per page shape instead of once per row.

A players page of 200 rows has some 1,300 such links, and Django's ``reverse`` took about
half of its rendering time. The pattern is reversed with a marker in the row's place and
the marker replaced; the row key must be a whole path segment (a number), which the test
checks against ``reverse`` itself. Where the marker is not exactly one segment (a slug made
of the marker's digits), ``reverse`` it is.
"""

from functools import lru_cache

from django import template
from django.urls import get_script_prefix, reverse

register = template.Library()

MARKER = 987654321  # never a row key: replaced by the row's number


@lru_cache(maxsize=512)
def _pattern(prefix: str, name: str, args: tuple) -> tuple[str, str] | None:
    """The URL around the row key, or None when the marker is not exactly one whole path
    segment (a slug that happens to be the marker's digits): then ``reverse`` it is."""
    url = reverse(name, args=list(args))
    segment = f"/{MARKER}/"
    if url.count(segment) != 1:
        return None
    before, _, after = url.partition(segment)
    return before + "/", "/" + after


@register.simple_tag
def row_url(name: str, slug: str, pk: int, *rest) -> str:
    pattern = _pattern(get_script_prefix(), name, (slug, MARKER, *rest))
    if pattern is None:
        return reverse(name, args=[slug, pk, *rest])
    before, after = pattern
    return f"{before}{int(pk)}{after}"
