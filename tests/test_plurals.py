"""Counts in the user's language (issue 35, section 4: "1 neue Spieler"): wherever a count
stands before a noun the message has a singular and a plural (ngettext, blocktranslate
count), in German and English."""

import re

import polib
import pytest
from django.conf import settings
from django.utils import translation

from tournament.base import ratelimit
from tournament.web import login_limit
from tournament.wording import findings

LOCALE = settings.BASE_DIR / "tournament" / "locale" / "de" / "LC_MESSAGES" / "django.po"


@pytest.mark.parametrize(
    "language, one, many",
    [
        ("de", "Bitte 1 Minute warten.", "Bitte 2 Minuten warten."),
        ("en", "Please wait 1 minute.", "Please wait 2 minutes."),
    ],
)
def test_the_login_limit_says_minute_or_minutes(language, one, many):
    with translation.override(language):
        assert login_limit.message(60).endswith(one)
        assert login_limit.message(61).endswith(many)


@pytest.mark.parametrize(
    "language, words",
    [("de", ["1 Sekunde", "59 Sekunden", "1 Minute", "2 Minuten"]),
     ("en", ["1 second", "59 seconds", "1 minute", "2 minutes"])],
)  # fmt: skip
def test_the_rate_limit_says_second_or_seconds(language, words):
    with translation.override(language):
        assert [ratelimit.wait_in_words(seconds) for seconds in (1, 59, 60, 61)] == words


def test_a_field_of_one_player_is_one_player():
    with translation.override("de"):
        assert findings.impossible_field_message(1, 3, None).startswith(
            "1 Spieler lässt sich nicht"
        )
        assert findings.impossible_field_message(7, 1, 3).startswith("7 Spieler lassen sich")
    with translation.override("en"):
        assert findings.impossible_field_message(1, 3, None).startswith("1 player cannot")


COUNTED = (
    "player", "game", "round", "tournament", "line", "error", "point", "minute", "second",
    "registration", "result",
)  # fmt: skip


def test_the_catalogue_has_no_count_of_a_noun_without_its_plural():
    """A message "%(count)s games" without a singular reads "1 games" when the count is 1;
    the counts that are never 1 are listed."""
    never_one = {  # more games than a round has, all games of a round, a field too large
        "The sheet has %(count)s games, a round only %(nominal)s: remove the games too many.",
        "%(count)s games: a round has only %(nominal)s.",
        "Game %(number)s is not on the sheet of table %(table)s: it has all %(count)s games.",
        "%(players)s players in %(rounds)s rounds are too many to draw at once (at most "
        "%(limit)s seats): draw this field round by round.",
        # A tablet's pairing code lives a fixed quarter of an hour (domain/devices.py).
        "This pairing code is not valid (any more): it is used once and only for %(minutes)s "
        "minutes. Ask the tournament office for a new one.",
        "On the tablet: scan the QR code with the camera, or open <strong>%(url)s</strong> and "
        "type the code. The code works once and for %(minutes)s minutes.",
    }
    po = polib.pofile(str(LOCALE))
    noun = "|".join(COUNTED)
    count_before_noun = re.compile(
        rf"%\((count|new|rows|points|total|players|minutes|seconds|active)\)s (\w+ )?({noun})"
    )
    used = {
        entry.msgid
        for entry in po
        if not entry.obsolete and not entry.msgid_plural and count_before_noun.search(entry.msgid)
    }
    assert sorted(used - never_one) == []


@pytest.mark.django_db
def test_the_players_page_counts_one_active_player(director_client, tournament):
    from django.urls import reverse

    from tests.factories import EntryFactory

    EntryFactory(tournament=tournament, start_number=1)
    page = director_client.get(reverse("manage:entry-list", args=[tournament.slug]))
    assert "1 aktiver Spieler, 0 eingecheckt." in page.content.decode()
