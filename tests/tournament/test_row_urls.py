"""{% row_url %} gives what {% url %} gives, for every row action of the players page."""

import pytest
from django.template import Context, Template
from django.urls import reverse, set_script_prefix

ROWS = [
    ("manage:entry-edit", ()),
    ("manage:entry-checkin", ()),
    ("manage:entry-fee", ()),
    ("manage:entry-status", ("withdraw",)),
    ("manage:entry-status", ("readmit",)),
]


@pytest.mark.parametrize("prefix", ["/", "/verein/"])
@pytest.mark.parametrize(("name", "rest"), ROWS)
def test_row_url_is_the_reversed_url_for_every_row(name, rest, prefix):
    template = Template(
        "{% load row_urls %}{% row_url name slug pk rest.0 %}" if rest else
        "{% load row_urls %}{% row_url name slug pk %}"
    )  # fmt: skip
    set_script_prefix(prefix)
    try:
        cases = [("herbst-2026", 7), ("a", 987654321), ("987654321", 7), ("987654321", 987654321)]
        for slug, pk in cases:
            context = Context({"name": name, "slug": slug, "pk": pk, "rest": rest})
            assert template.render(context) == reverse(name, args=[slug, pk, *rest])
    finally:
        set_script_prefix("/")
