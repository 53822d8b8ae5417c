"""Every download: one name scheme (slug, then what the file holds, in German), the right
content type, and no cache for the files that carry secrets or personal data."""

import pytest
from django.urls import reverse

from tests.downloads import file_of
from tests.factories import make_series, released_table
from tournament.exports.export import (
    CSV,
    JSON,
    PDF,
    XLSX,
    Export,
    ascii_name,
    content_disposition,
    download,
    file_name,
)
from tournament.models import Round, RoundStatus

pytestmark = pytest.mark.django_db


def attachment(name: str) -> str:
    return f'attachment; filename="{name}"'


def test_a_name_is_the_subject_then_what_the_file_holds():
    assert file_name("herbst", "druckpaket", "runde", 3, suffix="pdf") == (
        "herbst-druckpaket-runde-3.pdf"
    )
    assert file_name("herbst", "ergebnisse", "", suffix="csv") == "herbst-ergebnisse.csv"
    assert file_name("herbst", "personendaten", "Jürgen Weiß", suffix="json") == (
        "herbst-personendaten-jürgen-weiß.json"
    )


def test_an_umlaut_travels_in_the_utf8_form_with_an_ascii_name_beside_it():
    assert content_disposition("herbst-rangliste.pdf") == attachment("herbst-rangliste.pdf")
    assert content_disposition("vm-jürgen-weiß.json") == (
        'attachment; filename="vm-juergen-weiss.json"; '
        "filename*=UTF-8''vm-j%C3%BCrgen-wei%C3%9F.json"
    )


def test_the_ascii_name_never_needs_quoting():
    assert ascii_name('a"b\\c;d/e f.pdf') == "a_b_c_d_e_f.pdf"
    assert ascii_name("..ñandú.pdf") == "nandu.pdf"
    assert ascii_name("字.pdf") == "_.pdf"


def test_a_private_file_is_never_cached():
    made = Export("x.json", JSON, b"{}")
    assert download(made, private=True)["Cache-Control"] == "private, no-store"
    assert not download(made).has_header("Cache-Control")
    assert download(made)["Content-Length"] == "2"


@pytest.mark.parametrize(
    ("what", "fmt", "name", "content_type"),
    [
        ("standings", "pdf", "herbst-rangliste.pdf", PDF),
        ("standings", "xlsx", "herbst-rangliste.xlsx", XLSX),
        ("teams", "pdf", "herbst-teams.pdf", PDF),
        ("teams", "xlsx", "herbst-teams.xlsx", XLSX),
        ("rounds", "pdf", "herbst-runden.pdf", PDF),
        ("rounds", "xlsx", "herbst-runden.xlsx", XLSX),
    ],
)
def test_the_standings_files(director_client, tournament, what, fmt, name, content_type):
    released_table(tournament)
    url = reverse("manage:standings-export", args=[tournament.slug, what, fmt])
    response = director_client.get(url)
    assert file_of(response)
    assert response["Content-Disposition"] == attachment(name)
    assert response["Content-Type"] == content_type
    assert not response.has_header("Cache-Control")


@pytest.mark.parametrize(("fmt", "content_type"), [("csv", CSV), ("xlsx", XLSX)])
def test_the_federations_files_say_whether_they_are_final(
    director_client, tournament, fmt, content_type
):
    url = reverse("manage:results-export", args=[tournament.slug, fmt])
    provisional = director_client.get(url)
    assert file_of(provisional)
    assert provisional["Content-Type"] == content_type
    assert provisional["Content-Disposition"] == (
        f'attachment; filename="herbst-ergebnisse-vorlaeufig.{fmt}"; '
        f"filename*=UTF-8''herbst-ergebnisse-vorl%C3%A4ufig.{fmt}"
    )
    tournament.planned_rounds = 1
    tournament.save()
    Round.objects.create(tournament=tournament, number=1, status=RoundStatus.CLOSED)
    final = director_client.get(url)
    assert final["Content-Disposition"] == attachment(f"herbst-ergebnisse.{fmt}")
    # DDV member numbers: no cache keeps them (tester's finding).
    assert provisional["Cache-Control"] == final["Cache-Control"] == "private, no-store"


def test_the_print_pack_and_the_player_cards_are_private(director_client, tournament):
    released_table(tournament)
    pack = director_client.get(reverse("manage:print-pack", args=[tournament.slug, 1]))
    assert file_of(pack).startswith(b"%PDF")
    assert pack["Content-Disposition"] == attachment("herbst-druckpaket-runde-1.pdf")
    assert pack["Content-Type"] == PDF
    assert pack["Cache-Control"] == "private, no-store"
    cards = director_client.get(reverse("manage:player-cards", args=[tournament.slug]))
    assert file_of(cards).startswith(b"%PDF")
    assert cards["Content-Disposition"] == attachment("herbst-spielerkarten.pdf")
    assert cards["Content-Type"] == PDF
    assert cards["Cache-Control"] == "private, no-store"
    # A card printed again is named by its start numbers: it must not replace the whole set
    # in the download folder (tester's finding).
    again = director_client.get(
        reverse("manage:player-cards", args=[tournament.slug]) + "?nummern=2,7"
    )
    assert file_of(again).startswith(b"%PDF")
    assert again["Content-Disposition"] == attachment("herbst-spielerkarten-nr-2-7.pdf")


@pytest.mark.parametrize(("fmt", "content_type"), [("pdf", PDF), ("xlsx", XLSX)])
def test_the_series_files(client, tournament, fmt, content_type):
    tournament.is_public = True
    tournament.save()
    released_table(tournament)
    series = make_series([tournament], is_public=True)
    public = client.get(reverse("series-export", args=[series.slug, fmt]))
    assert file_of(public)
    assert public["Content-Disposition"] == attachment(f"vm-serienwertung.{fmt}")
    assert public["Content-Type"] == content_type
    client.force_login(series.directors.first())
    directors = client.get(reverse("manage:series-download", args=[series.slug, fmt]))
    assert file_of(directors)
    assert directors["Content-Disposition"] == attachment(f"vm-serienwertung-intern.{fmt}")
    assert directors["Content-Type"] == content_type


def test_the_treasurers_and_the_referees_lists(director_client, tournament):
    fees = director_client.get(reverse("manage:entry-fees-export", args=[tournament.slug]))
    assert file_of(fees)
    assert fees["Content-Disposition"] == attachment("herbst-startgeld.xlsx")
    assert fees["Content-Type"] == XLSX
    record = director_client.get(reverse("manage:penalty-export", args=[tournament.slug]))
    assert file_of(record)
    assert record["Content-Disposition"] == attachment("herbst-strafen.xlsx")
    assert record["Content-Type"] == XLSX
    # Who paid, who was penalised: personal data, never cached (tester's finding).
    assert fees["Cache-Control"] == record["Cache-Control"] == "private, no-store"


def test_a_persons_data_is_named_after_them_and_never_cached(director_client, tournament):
    table = released_table(tournament)
    entry = table.seats.select_related("entry__player").first().entry
    entry.player.first_name, entry.player.last_name = "Jürgen", "Weiß"
    entry.player.save()
    url = reverse("manage:player-data", args=[tournament.slug, entry.pk])
    response = director_client.get(url)
    assert file_of(response).startswith(b"{")
    assert response["Content-Type"] == JSON
    assert response["Content-Disposition"] == (
        'attachment; filename="herbst-personendaten-juergen-weiss.json"; '
        "filename*=UTF-8''herbst-personendaten-j%C3%BCrgen-wei%C3%9F.json"
    )
    assert response["Cache-Control"] == "private, no-store"
