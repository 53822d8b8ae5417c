"""History lines the site writes itself are stored as an event and its parameters, and read in
the reader's language (issue 35): a director who works in German and one who reads the
history in English see the same line in their own words. Lines stored as text before are
turned into events by migration 0034 where they are recognised; typed reasons stay as typed."""

import json
import re

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from tests.factories import EntryFactory, PlayerFactory
from tests.migrations import migrate_to, migrated_back
from tournament.domain.players import merge_players
from tournament.models.audit import history_reason

pytestmark = pytest.mark.django_db


def edit_page(client, tournament, entry, language):
    client.cookies["django_language"] = language
    url = reverse("manage:entry-edit", args=[tournament.slug, entry.pk])
    return client.get(url).content.decode()


def test_history_written_in_german_reads_in_english(director_client, director_user, tournament):
    entry = EntryFactory(tournament=tournament, player=PlayerFactory(first_name="Anna"))
    director_client.cookies["django_language"] = "de"  # the director works in German
    slug = tournament.slug
    director_client.post(
        reverse("manage:entry-fee", args=[slug, entry.pk]), {"fee": "paid"}, follow=True
    )
    director_client.post(
        reverse("manage:entry-status", args=[slug, entry.pk, "withdraw"]), follow=True
    )
    assert [r.history_event for r in entry.history.order_by("history_id")][-2:] == [
        "entry-fee",
        "withdrawn-by-director",
    ]

    english = edit_page(director_client, tournament, entry, "en")
    assert "withdrawn by the director" in english and "entry fee" in english
    assert "zurückgezogen" not in english and "Startgeld" not in english
    german = edit_page(director_client, tournament, entry, "de")
    assert "von der Turnierleitung zurückgezogen" in german and "Startgeld" in german

    # The person's data file speaks the reader's language too.
    director_client.cookies["django_language"] = "en"
    url = reverse("manage:player-data", args=[slug, entry.pk])
    data = json.loads(director_client.get(url).content)
    reasons = [line["reason"] for t in data["tournaments"] for line in t["entry"]["history"]]
    assert "withdrawn by the director" in reasons and "entry fee" in reasons


def test_a_merge_note_keeps_the_typed_reason_and_names_the_rest_in_the_readers_language(
    director_user, tournament
):
    keep = PlayerFactory(first_name="Anna", last_name="Schäfer")
    drop = PlayerFactory(first_name="Anna", last_name="Schaefer")
    EntryFactory(tournament=tournament, player=keep)
    moved = EntryFactory(tournament=EntryFactory().tournament, player=drop)
    moved.tournament.directors.add(director_user)
    merge_players(keep, drop, user=director_user, reason="dieselbe Person")
    record = moved.history.first()
    assert record.history_event == "merged-with-player"
    assert record.history_params == {
        "id": drop.pk,
        "name": "Anna Schaefer",
        "reason": "dieselbe Person",
    }
    with translation.override("en"):
        assert (
            history_reason(record)
            == f"merged with player {drop.pk} (Anna Schaefer): dieselbe Person"
        )
    with translation.override("de"):
        assert history_reason(record) == (
            f"zusammengeführt mit Spieler {drop.pk} (Anna Schaefer): dieselbe Person"
        )


OLD_LINES = [
    # (stored before, event, parameters)
    ("von der Turnierleitung zurückgezogen", "withdrawn-by-director", None),
    ("Startgeld", "entry-fee", None),
    ("entry fee", "entry-fee", None),  # written while a director used the English pages
    (
        "zusammengeführt mit Spieler 7 (Anna Schäfer): dieselbe Person",
        "merged-with-player",
        {"id": 7, "name": "Anna Schäfer", "reason": "dieselbe Person"},
    ),
    (
        "ersetzt durch Spieler 9: Angaben von der Turnierleitung übernommen",
        "replaced-by-player",
        {"id": 9, "reason": {"event": "identity-accepted", "params": None}},
    ),
]
KEPT = ["Tippfehler im Namen", "leitung: verzählt"]  # typed: as it was written
# A Spielliste row's lines: who, why, what the change did to the confirmation.
GAME_LINES = [
    ("leitung: entfernt", {"actor": "leitung", "reason": {"event": "row-removed", "params": None}}),
    (
        "Listenführer Tisch 1 · Startnr. 3: verzählt · nach der Bestätigung geändert",
        {
            "actor": "Listenführer Tisch 1 · Startnr. 3",
            "reason": "verzählt",
            "note": {"event": "changed-after-confirmation", "params": None},
        },
    ),
]


@pytest.mark.django_db(transaction=True)
def test_the_migration_turns_old_lines_into_events_and_keeps_the_rest():
    with migrated_back([("tournament", "0031_unverify_online_players")]) as apps:
        tournament = apps.get_model("tournament", "Tournament").objects.create(
            name="Alt", slug="alt", date="2026-11-21", projector_token="token-alt"
        )
        player = apps.get_model("tournament", "Player").objects.create(last_name="Bisher")
        entry = apps.get_model("tournament", "Entry").objects.create(
            tournament=tournament, player=player, start_number=1
        )
        round_ = apps.get_model("tournament", "Round").objects.create(
            tournament=tournament, number=1
        )
        table = apps.get_model("tournament", "Table").objects.create(
            round=round_, number=1, size=4, token="tok-1"
        )
        for text, _params in [*GAME_LINES, ("Listenführer Tisch 1", None)]:
            apps.get_model("tournament", "HistoricalGame").objects.create(
                id=1, table_id=table.pk, number=1, kind="normal", p1=1, p2=-1, p3=1, p4=-1,
                version=1, history_date=timezone.now(), history_type="~",
                history_change_reason=text,
            )  # fmt: skip
        History = apps.get_model("tournament", "HistoricalEntry")
        texts = [text for text, _code, _params in OLD_LINES] + KEPT
        for text in texts:
            History.objects.create(
                id=entry.pk, tournament_id=tournament.pk, player_id=player.pk, start_number=1,
                status="active", history_date=timezone.now(), history_type="~",
                history_change_reason=text,
            )  # fmt: skip

        apps = migrate_to()
        records = list(apps.get_model("tournament", "HistoricalEntry").objects.order_by("pk"))
        found = [(r.history_event, r.history_params) for r in records]
        assert found == [(code, params) for _text, code, params in OLD_LINES] + [("", None)] * 2
        assert [r.history_change_reason for r in records[-2:]] == KEPT
        with translation.override("en"):
            shown = [history_reason(r) for r in records]
        assert shown[:5] == [
            "withdrawn by the director",
            "entry fee",
            "entry fee",
            "merged with player 7 (Anna Schäfer): dieselbe Person",
            "replaced by player 9: identity accepted by the director",
        ]
        assert shown[5:] == KEPT
        games = list(apps.get_model("tournament", "HistoricalGame").objects.order_by("pk"))
        assert [(g.history_event, g.history_params) for g in games] == [
            *[("by", params) for _text, params in GAME_LINES],
            ("", None),  # who only: as it was
        ]
        with translation.override("en"):
            assert [history_reason(g) for g in games] == [
                "leitung: removed",
                "Listenführer Tisch 1 · Startnr. 3: verzählt · changed after confirmation",
                "Listenführer Tisch 1",
            ]

        # Back again: the lines are written out in the site's language.
        apps = migrate_to([("tournament", "0031_unverify_online_players")])
        back = apps.get_model("tournament", "HistoricalEntry").objects.order_by("pk")
        assert [r.history_change_reason for r in back] == [
            "von der Turnierleitung zurückgezogen",
            "Startgeld",
            "Startgeld",
            *texts[3:],
        ]


def test_no_history_line_is_written_as_translated_text():
    """A reason written as ``_("...")`` is stored in the writer's language for ever: the site's
    own lines are events (``event("code")``); only what people type stays text."""
    from pathlib import Path

    import tournament

    root = Path(tournament.__file__).parent
    offenders = [
        f"{path.relative_to(root)}:{number}"
        for path in root.rglob("*.py")
        if "migrations" not in path.parts
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if re.search(r"\b(stamp|set_status)\(.*\b_\(\"", line)
    ]
    assert offenders == []
