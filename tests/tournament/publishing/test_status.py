"""What the director reads about publishing, in German and English, on the tournament's page,
and the page "Results service" where the address and key are entered."""

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from tests.factories import EntryFactory
from tournament.models import Publication, PublishingTarget
from tournament.publishing import protocol
from tournament.publishing.publisher import Publisher
from tournament.publishing.status import status

pytestmark = pytest.mark.django_db


def texts(tournament, language):
    with translation.override(language):
        found = status(tournament)
        return found.text, found.waiting, found.error


def test_a_tournament_not_opted_in_is_not_published(tournament):
    assert texts(tournament, "de")[0] == "nicht veröffentlicht"
    assert texts(tournament, "en")[0] == "not published"


def test_published_says_as_of_when(hall, published, clock):
    clock.now = timezone.localtime().replace(hour=14, minute=32)
    Publisher(clock=clock).run_once()
    assert texts(published, "de") == ("veröffentlicht: Stand 14:32", "", "")
    assert texts(published, "en") == ("published: as of 14:32", "", "")


def test_changes_waiting_for_a_connection_are_counted(hall, published, clock):
    hall.trouble.append("drop")  # the first attempt; later ones wait for the pause
    publisher = Publisher(clock=clock)
    publisher.run_once()
    for _change in range(2):
        EntryFactory(tournament=published)
        publisher.run_once()

    text, waiting, error = texts(published, "de")
    assert text == "noch nicht veröffentlicht"
    assert waiting == "3 Änderungen warten auf eine Verbindung"
    assert error.startswith("Keine Verbindung zum Ergebnisdienst")
    text, waiting, error = texts(published, "en")
    assert waiting == "3 changes waiting for a connection"
    assert error.startswith("No connection to the results service")

    clock.advance(3600)
    publisher.run_once()
    assert texts(published, "de")[1:] == ("", "")
    assert texts(published, "de")[0].startswith("veröffentlicht: Stand ")


def test_a_refused_key_is_said_in_words(hall, published, clock):
    hall.trouble.append((401, {"error": protocol.BAD_KEY}))
    Publisher(clock=clock).run_once()
    # A connection exists: the service said no, and the error says why.
    assert texts(published, "de")[1] == "1 Änderung noch nicht gesendet"
    assert texts(published, "en")[1] == "1 change not sent yet"
    assert "Veröffentlichungsschlüssel" in texts(published, "de")[2]
    assert "publishing key" in texts(published, "en")[2]


def test_the_tournament_page_shows_it_and_send_now_skips_the_pause(
    director_client, hall, published, clock
):
    hall.trouble.append((401, {"error": protocol.BAD_KEY}))
    Publisher(clock=clock).run_once()
    page = director_client.get(reverse("manage:entry-list", args=[published.slug]))
    assert "1 Änderung noch nicht gesendet" in page.content.decode()

    director_client.post(reverse("manage:publish-now", args=[published.slug]))
    assert Publication.objects.get(tournament=published).next_try_at is None
    Publisher(clock=clock).run_once()
    assert [s for _uid, s, _body in hall.accepted] == [1]


def test_the_director_enters_the_service_and_the_key_is_never_shown_back(director_client):
    key = protocol.new_key()
    url = reverse("manage:results-service")
    answer = director_client.post(url, {"url": "https://ergebnisse.example.org/", "key": str(key)})
    assert answer.status_code == 302
    stored = PublishingTarget.objects.get()
    assert (stored.url, stored.key) == ("https://ergebnisse.example.org/", str(key))

    page = director_client.get(url).content.decode()
    assert key.key_id in page
    assert key.secret not in page

    # Saving the address again without a key keeps the key.
    director_client.post(url, {"url": "https://andere.example.org/", "key": ""})
    assert PublishingTarget.objects.get().key == str(key)


def test_a_wrong_key_is_refused_with_a_message_and_nothing_is_stored(director_client):
    page = director_client.post(
        reverse("manage:results-service"),
        {"url": "https://ergebnisse.example.org/", "key": "mein-passwort"},
    )
    assert page.status_code == 200
    assert "kein Veröffentlichungsschlüssel" in page.content.decode()
    assert not PublishingTarget.objects.exists()


def test_the_environment_wins_and_the_page_says_so(settings, director_client):
    key = protocol.new_key()
    settings.RESULTS_SERVICE_URL = "https://dienst.example.org/"
    settings.RESULTS_SERVICE_KEY = str(key)
    PublishingTarget.objects.create(url="https://alt.example.org/", key=str(protocol.new_key()))
    page = director_client.get(reverse("manage:results-service")).content.decode()
    assert "RESULTS_SERVICE_URL" in page
    assert key.key_id in page
    assert key.secret not in page


def test_the_tournament_settings_take_the_publishing_choices(director_client, tournament):
    url = reverse("manage:tournament-edit", args=[tournament.slug])
    form = director_client.get(url).context["form"]
    data = {name: value for name, value in form.initial.items() if value is not None}
    data.update(
        publish_results="on",
        publish_delay_minutes="30",
        publish_closed_rounds_only="on",
        date=tournament.date.isoformat(),
    )
    data.pop("custom_overrides", None)
    answer = director_client.post(url, data)
    assert answer.status_code == 302, answer.context["form"].errors
    tournament.refresh_from_db()
    assert tournament.publish_results
    assert tournament.publish_delay_minutes == 30
    assert tournament.publish_closed_rounds_only


def test_an_address_that_redirects_is_named(hall, published, clock):
    hall.trouble.append(("redirect", "https://ergebnisse.example.org/api/v1/publish/"))
    Publisher(clock=clock).run_once()
    assert hall.accepted == []
    error = texts(published, "de")[2]
    assert "https://ergebnisse.example.org/api/v1/publish/" in error
    assert error.startswith("Die Adresse des Ergebnisdienstes führt woandershin")


def test_a_new_key_sends_at_once_what_waited(settings, director_client, hall, published, clock):
    settings.RESULTS_SERVICE_URL = settings.RESULTS_SERVICE_KEY = ""  # the page's entry counts
    wrong = protocol.new_key()
    PublishingTarget.objects.create(url=hall.url, key=str(wrong))
    publisher = Publisher(clock=clock)
    publisher.run_once()
    assert publication_error(published) == protocol.BAD_KEY

    director_client.post(reverse("manage:results-service"), {"url": hall.url, "key": str(hall.key)})
    publisher.run_once()  # the same publisher, without waiting for its slow retry
    assert [s for _uid, s, _body in hall.accepted] == [2]  # the state anew, for the new key
    assert publication_error(published) == ""


def publication_error(tournament):
    return Publication.objects.get(tournament=tournament).last_error
