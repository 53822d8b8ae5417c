"""Clubs and publishing keys: `manage.py club ...` and the Django admin, the key shown once;
and the gate lets a hall's publication through while a flood of readers fills it."""

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.urls import reverse

from tests.tournament.test_gate import SlowSite, flood, request, wait_until
from tournament.models import Club, PublishingKey
from tournament.publishing import protocol
from tournament.web.gate import Gate

pytestmark = pytest.mark.django_db


def club(*args) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command("club", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_the_command_adds_a_club_and_prints_its_key_once(client):
    out, _ = club("add", "DSC Köln 1990 e.V.", "--slug", "koeln")
    assert "/verein/koeln/" in out
    key_text, note = club("key", "koeln")
    key = protocol.parse_key(key_text)
    assert key is not None and "nur jetzt" in note
    stored = PublishingKey.objects.get()
    assert (stored.key_id, stored.secret, stored.club.slug) == (key.key_id, key.secret, "koeln")
    listing, _ = club("list")
    assert key.key_id in listing and key.secret not in listing and "aktiv" in listing


def test_rotating_revokes_the_clubs_other_keys_and_revoke_takes_one(client):
    club("add", "Kreuz Bonn")
    first = protocol.parse_key(club("key", "kreuz-bonn")[0])
    second = protocol.parse_key(club("rotate", "kreuz-bonn")[0])
    assert first and second
    usable = set(PublishingKey.objects.usable().values_list("key_id", flat=True))
    assert usable == {second.key_id}
    out, _ = club("revoke", str(second))  # the whole key pasted works too
    assert second.key_id in out
    assert not PublishingKey.objects.usable().exists()


@pytest.mark.parametrize(
    "args, message",
    [
        (("key", "niemand"), "Einen Verein „niemand“ gibt es nicht."),
        (("revoke", "abcdefgh12345678"), "Einen Veröffentlichungsschlüssel „abcdefgh12345678“"),
        (("add", "  "), "Bitte geben Sie den Namen des Vereins an."),
    ],
)
def test_the_command_refuses_with_a_message_and_changes_nothing(args, message):
    with pytest.raises(CommandError, match=message):
        club(*args)
    assert not Club.objects.exists() and not PublishingKey.objects.exists()


def test_a_club_slug_is_unique(client):
    club("add", "Köln", "--slug", "koeln")
    with pytest.raises(CommandError, match="gibt es schon"):
        club("add", "Köln II", "--slug", "koeln")
    assert Club.objects.count() == 1


@pytest.fixture
def admin_client(client):
    user = get_user_model().objects.create_superuser("admin", password="x-admin-geheim-9")
    client.force_login(user)
    return client


def test_the_admin_makes_a_key_and_shows_it_once(admin_client):
    koeln = Club.objects.create(name="DSC Köln", slug="koeln")
    response = admin_client.post(reverse("admin:tournament_publishingkey_add"), {"club": koeln.pk})
    assert response.status_code == 200 and "no-store" in response["Cache-Control"]
    page = response.content.decode()
    key = PublishingKey.objects.get()
    assert f"kd1.{key.key_id}.{key.secret}" in page
    for url in (
        reverse("admin:tournament_publishingkey_changelist"),
        reverse("admin:tournament_publishingkey_change", args=[key.pk]),
    ):
        assert key.secret not in admin_client.get(url).content.decode()


def test_the_admins_rotation_shows_the_new_key_and_revokes_the_old(admin_client):
    koeln = Club.objects.create(name="DSC Köln", slug="koeln")
    old = PublishingKey.objects.create(club=koeln, key_id="altschluessel1", secret="x" * 43)
    response = admin_client.post(
        reverse("admin:tournament_club_changelist"),
        {"action": "rotate_keys", "_selected_action": [koeln.pk]},
    )
    new = PublishingKey.objects.exclude(pk=old.pk).get()
    assert f"kd1.{new.key_id}.{new.secret}" in response.content.decode()
    old.refresh_from_db()
    assert old.revoked_at is not None and new.revoked_at is None


def test_a_halls_publication_passes_a_gate_full_of_readers(settings):
    settings.PUBLIC_CONCURRENCY, settings.PUBLIC_QUEUE, settings.PUBLIC_HOLD = 2, 3, 5
    site = SlowSite()
    gate = Gate(site)
    threads, _ = flood(gate, 5)
    wait_until(lambda: site.running == 2 and gate.waiting == 3)
    assert gate(request("/t/cup/stand/")).status_code == 429  # a reader more: turned away
    assert gate(request(protocol.PATH)).status_code == 200  # the hall: passes at once
    site.release.set()
    for thread in threads:
        thread.join(10)


def test_a_clubs_page_in_the_admin_lists_its_keys_without_their_secrets(admin_client):
    koeln = Club.objects.create(name="DSC Köln", slug="koeln")
    key = PublishingKey.objects.create(club=koeln, key_id="schluessel12345", secret="s" * 43)
    page = admin_client.get(reverse("admin:tournament_club_change", args=[koeln.pk]))
    assert page.status_code == 200
    assert key.key_id in page.content.decode() and key.secret not in page.content.decode()
