"""Hidden standings (issue 38): a tournament of three closed rounds whose director hides the
results from round 3 on. Round 3's points (distinctive four-digit numbers) appear on no public
page, screen, file or copy on the results service; every public path says why; the office sees
everything; after "Reveal the standings" the public sees every round."""

import io
import json
import re
import uuid

import openpyxl
import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone

from tests import factories
from tests.downloads import file_of
from tests.tournament.exports.test_exports import pdf_text
from tests.tournament.test_tournaments import as_browser_sends
from tournament import archive
from tournament.forms.tournaments import TournamentForm
from tournament.models import (
    Entry,
    Game,
    Penalty,
    Round,
    RoundStatus,
    Seat,
    Sheet,
    SheetStatus,
    Table,
    Tournament,
)
from tournament.queries import standings

pytestmark = pytest.mark.django_db

# One game per round at one table of four (zero-sum rows). Rounds 1 and 2 are small numbers;
# round 3 and every total that includes it are four-digit numbers found nowhere else.
ROUNDS = [(12, -12, 8, -8), (6, -6, -4, 4), (7319, -2771, -2274, -2274)]
HIDDEN = ["7319", "2771", "2274", "7337", "2789", "2270", "2278"]
NOTE = "Die Ergebnisse ab Runde 3 werden bei der Siegerehrung bekanntgegeben."


def shows_hidden(text: str) -> list[str]:
    """The hidden numbers ``text`` shows (as whole numbers, not inside a longer one)."""
    return [n for n in HIDDEN if re.search(rf"(?<![\d]){n}(?![\d])", text)]


@pytest.fixture
def hidden(db):
    director = factories.director(username="leitung")
    t = factories.TournamentFactory(
        name="Verdecktes Turnier",
        slug="verdeckt",
        is_public=True,
        planned_rounds=3,
        hide_standings_from=3,
        directors=[director],
    )
    entries = [
        factories.EntryFactory(
            tournament=t,
            start_number=n,
            player=factories.PlayerFactory(first_name=f"Vorname{n}", last_name=f"Name{n}"),
        )
        for n in range(1, 5)
    ]
    now = timezone.now()
    for number, row in enumerate(ROUNDS, start=1):
        round_ = Round.objects.create(
            tournament=t, number=number, status=RoundStatus.CLOSED, started_at=now, closed_at=now
        )
        table = Table.objects.create(round=round_, number=1, size=4)
        for position, entry in enumerate(entries, start=1):
            Seat.objects.create(round=round_, table=table, entry=entry, position=position)
        Game.objects.create(table=table, number=1, kind="normal", **_cells(row))
    factories.settle(t)
    series = factories.make_series([t], is_public=True)
    t.refresh_from_db()
    t.director = director  # type: ignore[attr-defined]
    t.series_slug = series.slug  # type: ignore[attr-defined]
    return t


def _cells(row):
    return {f"p{i}": value for i, value in enumerate(row, start=1)}


def _office(tournament) -> Client:
    client = Client()
    client.force_login(tournament.director)
    return client


def _public_urls(t: Tournament) -> dict[str, str]:
    """Every public path that shows results, by route name."""
    entry = Entry.objects.get(tournament=t, start_number=1)
    series = t.series_slug  # type: ignore[attr-defined]
    return {
        "tournament-public": reverse("tournament-public", args=[t.slug]),
        "public-standings": reverse("public-standings", args=[t.slug]),
        "public-projector": reverse("public-projector", args=[t.slug]),
        "public-projector-data": reverse("public-projector-data", args=[t.slug]) + "?zahlen=1",
        "projector": reverse("projector", args=[t.projector_token]) + "?zahlen=1",
        "projector-data": reverse("projector-data", args=[t.projector_token]) + "?zahlen=1",
        "projector-day": reverse("projector-day", args=[t.projector_token]),
        "statistics": reverse("statistics", args=[t.slug]),
        "statistics-player": reverse("statistics-player", args=[t.slug, 1]),
        "statistics-day": reverse("statistics-day", args=[t.slug]),
        "registration-personal": reverse("registration-personal", args=[entry.token]),
        "series-public": reverse("series-public", args=[series]),
        "series-player": reverse("series-player", args=[series, entry.player_id]),
        "series-statistics": reverse("series-statistics", args=[series]),
        "series-player-statistics": reverse(
            "series-player-statistics", args=[series, entry.player_id]
        ),
        "series-export": reverse("series-export", args=[series, "xlsx"]),
    }


def _text(response) -> str:
    if response.get("Content-Disposition", "").startswith("attachment;"):
        book = openpyxl.load_workbook(io.BytesIO(file_of(response)))
        cells = [str(c) for sheet in book for row in sheet.iter_rows(values_only=True) for c in row]
        return "\n".join(cells)
    text = response.content.decode()
    if response["Content-Type"].startswith("application/json"):
        # The words of the JSON, unescaped (umlauts): the note is in the page around it.
        return json.dumps(json.loads(text), ensure_ascii=False)
    return text


def _says_so(name: str, text: str) -> bool:
    if name.endswith("projector-data"):
        return json.loads(text)["standings"]["hidden_from"] == 3
    if name in ("projector", "public-projector"):  # the script fills in the round
        template = "Die Ergebnisse ab Runde {n} werden bei der Siegerehrung bekanntgegeben."
        return template in text and '"hidden_from": 3' in text
    return NOTE in text or "Verdecktes Turnier: Die Ergebnisse ab Runde 3" in text


def test_no_public_path_shows_the_hidden_round_and_each_says_so(hidden):
    client = Client()
    for name, url in _public_urls(hidden).items():
        response = client.get(url)
        assert response.status_code == 200, (name, response.status_code)
        text = _text(response)
        assert shows_hidden(text) == [], name
        assert _says_so(name, text), name


def test_the_public_series_pdf_holds_no_hidden_round_and_says_so(hidden):
    url = reverse("series-export", args=[hidden.series_slug, "pdf"])  # type: ignore[attr-defined]
    text = " ".join(pdf_text(file_of(Client().get(url))).split())
    assert shows_hidden(text) == []
    assert "Verdecktes Turnier: Die Ergebnisse ab Runde 3" in text


def test_the_live_part_of_the_public_standings_is_hidden_too(hidden):
    url = reverse("public-standings", args=[hidden.slug])
    body = Client().get(url, headers={"HX-Request": "true"}).content.decode()
    assert shows_hidden(body) == [] and NOTE in body
    # Rounds 1 and 2 count: player 1 has 12 + 6.
    line = re.search(r'id="line-1".*?</tr>', body, re.S)
    assert line is not None and ">18<" in line.group(0)
    assert "Vorläufiger Stand" in body  # never final while rounds are hidden


def test_the_office_sees_every_round_and_the_marker(hidden):
    office = _office(hidden)
    page = office.get(reverse("manage:standings", args=[hidden.slug])).content.decode()
    assert "7337" in page and "7319" in page
    assert "Öffentlich verborgen ab Runde 3" in page and 'id="reveal-standings"' in page
    assert NOTE not in page  # the office's table is no public one
    statistics = office.get(reverse("manage:statistics", args=[hidden.slug])).content.decode()
    assert "7319" in statistics
    computed = standings.compute(hidden)
    assert computed.round_numbers == [1, 2, 3] and computed.hidden_from is None
    public = standings.compute(hidden, public=True)
    assert public.round_numbers == [1, 2] and public.hidden_from == 3


def test_the_projector_screen_says_so_in_english_too(hidden):
    client = Client()
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    page = client.get(reverse("public-projector", args=[hidden.slug])).content.decode()
    assert "Results from round {n} on will be announced at the prize ceremony." in page
    assert shows_hidden(page) == []
    data = json.loads(re.search(r'id="projector-data"[^>]*>(.*?)</script>', page, re.S).group(1))
    assert data["standings"]["rounds"] == [1, 2] and data["standings"]["hidden_from"] == 3


def test_after_the_reveal_the_public_sees_every_round(hidden):
    client = Client()
    urls = _public_urls(hidden)
    for url in urls.values():  # cached while hidden
        client.get(url)
    office = _office(hidden)
    response = office.post(reverse("manage:standings-reveal", args=[hidden.slug]))
    assert response.status_code == 302
    hidden.refresh_from_db()
    assert hidden.hide_standings_from is None
    assert hidden.history.first().history_user == hidden.director  # type: ignore[attr-defined]
    for name in ("public-standings", "statistics", "series-public", "registration-personal"):
        text = _text(client.get(urls[name]))
        assert "7337" in text or "7319" in text, name
        assert NOTE not in text, name
    data = client.get(urls["public-projector-data"]).json()
    assert data["standings"]["rounds"] == [1, 2, 3] and data["standings"]["hidden_from"] is None
    series = _text(client.get(urls["series-export"]))
    assert "7337" in series
    # A second click changes nothing and says so.
    again = office.post(reverse("manage:standings-reveal", args=[hidden.slug]), follow=True)
    assert "Es ist nichts verborgen" in again.content.decode()


def test_only_directors_reveal_and_only_by_post(hidden, client):
    url = reverse("manage:standings-reveal", args=[hidden.slug])
    assert _office(hidden).get(url).status_code == 405
    referee = factories.referee(username="schiri")
    hidden.referees.add(referee)
    client.force_login(referee)
    assert client.post(url).status_code == 403
    hidden.refresh_from_db()
    assert hidden.hide_standings_from == 3


def test_the_setting_is_checked_against_the_planned_rounds(hidden):
    office = _office(hidden)
    url = reverse("manage:tournament-edit", args=[hidden.slug])
    page = office.get(url).content.decode()
    assert 'name="hide_standings_from"' in page and "Öffentlichen Stand verbergen ab Runde" in page

    def post(value):
        fresh = Tournament.objects.get(pk=hidden.pk)
        form = TournamentForm(instance=fresh)
        return office.post(url, as_browser_sends(form, hide_standings_from=value))

    for wrong in ("4", "0"):
        response = post(wrong)
        assert response.status_code == 200, wrong
        assert Tournament.objects.get(pk=hidden.pk).hide_standings_from == 3  # unchanged
    assert "zwischen 1 und 3 (die geplanten Runden)" in post("4").content.decode()
    assert post("1").status_code == 302
    assert Tournament.objects.get(pk=hidden.pk).hide_standings_from == 1
    assert post("").status_code == 302
    assert Tournament.objects.get(pk=hidden.pk).hide_standings_from is None


def test_a_change_of_the_setting_renews_the_cached_public_pages(hidden):
    client = Client()
    url = reverse("public-standings", args=[hidden.slug])
    assert shows_hidden(client.get(url).content.decode()) == []
    before = hidden.results_version
    hidden.hide_standings_from = None
    hidden.save()
    hidden.refresh_from_db()
    assert hidden.results_version > before  # every public page and file is keyed by it
    assert "7337" in client.get(url).content.decode()


def test_the_keepers_own_sheet_stays_visible(hidden):
    table = Table.objects.get(round__tournament=hidden, round__number=3)
    page = Client().get(reverse("keeper-sheet", args=[table.token])).content.decode()
    assert "7319" in page  # the table's own list: they wrote it


def test_the_public_archive_holds_no_result_of_a_hidden_round(hidden):
    table = Table.objects.get(round__tournament=hidden, round__number=3)
    referee = factories.referee(username="schiri")
    Penalty.objects.create(
        table=table,
        game_number=1,
        offender=table.seats.get(position=2).entry,
        offender_position=2,
        category="geringfuegig",
        p1=1,
        p2=-3,
        p3=1,
        p4=1,
        referee=referee,
        entered_by=referee,
        signed_at=timezone.now(),
    )
    doc = archive.build(hidden, profile="public")
    assert doc["tournament"]["hide_standings_from"] == 3
    third = next(r for r in doc["rounds"] if r["number"] == 3)
    assert third["results"] == []
    assert all(t["games"] == [] and t["penalties"] == [] for t in third["tables"])
    assert all(t["seats"] for t in third["tables"])  # the table plan stays
    assert shows_hidden(json.dumps(doc)) == []
    first = next(r for r in doc["rounds"] if r["number"] == 1)
    assert first["results"] and first["tables"][0]["games"]
    full = archive.build(hidden)
    assert "7319" in json.dumps(full) and full["tournament"]["hide_standings_from"] == 3


def test_the_copy_on_the_results_service_shows_the_note_and_no_hidden_round(hidden):
    doc = archive.build(hidden, profile="public")
    doc["tournament"]["uid"] = str(uuid.uuid4())  # another club's copy beside the hall's
    copy = archive.restore(doc, slug="kopie", with_series=False, public_only=True)
    assert copy.hide_standings_from == 3
    client = Client()
    for name in ("public-standings", "tournament-public", "statistics"):
        text = client.get(reverse(name, args=[copy.slug])).content.decode()
        assert shows_hidden(text) == [], name
        assert NOTE in text, name
    assert standings.compute(copy, public=True).round_numbers == [1, 2]


# Every public route (outside manage/ and the admin), by what it shows. A route added later
# must be put in one of the two sets: either it shows results (and is covered above), or not.
SHOWS_RESULTS = {
    "tournament-public",
    "public-standings",
    "public-projector",
    "public-projector-data",
    "projector",
    "projector-data",
    "projector-day",
    "statistics",
    "statistics-player",
    "statistics-day",
    "registration-personal",
    "series-public",
    "series-player",
    "series-statistics",
    "series-player-statistics",
    "series-export",
    "club-tournament",  # a redirect to the copy's public page (test above)
}
NO_RESULTS = {
    "home",  # lists of tournaments, no points
    "club",  # a club's list of tournaments
    "publish",  # the service's end point
    "tournament-calculator",
    "calculator",
    "where-do-i-sit",  # seats, not results
    "public-table-plan",  # seats, not results
    # The list keeper's own table (it wrote the sheet) and its tools.
    "keeper-sheet",
    "keeper-status",
    "keeper-calculator",
    "keeper-delete",
    "keeper-submit",
    "keeper-confirm",
    "keeper-time-up",
    "keeper-call",
    "device-home",
    "device-pair",
    "device-state",
    "device-forget",
    "registration-form",
    "registration-resend",
    "registration-edit",
    "registration-cancel",
    "registration-checkin",
    "registration-print",  # the personal link as a QR code
    "login",
    "logout",
    "set_language",
}


def _public_route_names() -> set[str]:
    names: set[str] = set()

    def walk(patterns, namespace):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, pattern.namespace or namespace)
            elif isinstance(pattern, URLPattern) and pattern.name and not namespace:
                names.add(pattern.name)

    walk(get_resolver().url_patterns, None)
    return names


def test_every_public_route_is_known_to_show_results_or_not(hidden):
    assert _public_route_names() == SHOWS_RESULTS | NO_RESULTS
    assert not SHOWS_RESULTS & NO_RESULTS
    covered = set(_public_urls(hidden)) | {"club-tournament"}
    assert covered == SHOWS_RESULTS


def test_a_change_of_the_setting_switches_the_series_pages_at_once(hidden, settings):
    """The series pages may serve a copy a minute old when only results changed (production's
    allowance, switched off for the other tests); hiding or revealing a round is no such
    change: the next reader sees it."""
    settings.SERIES_CACHE_SECONDS = 60
    client = Client()
    names = ("series-public", "series-player", "series-statistics", "series-player-statistics")
    urls = [url for name, url in _public_urls(hidden).items() if name in names]

    def pages() -> str:
        return "\n".join(client.get(url).content.decode() for url in urls)

    assert shows_hidden(pages()) == []  # cached, round 3 hidden
    hidden.hide_standings_from = None
    hidden.save()
    assert "7337" in pages()  # cached now with every round
    hidden.hide_standings_from = 3
    hidden.save()
    assert shows_hidden(pages()) == []


@pytest.mark.parametrize("live", [True, False])
def test_a_running_hidden_round_never_counts_publicly(live):
    """Round 2 is hidden and still running (released): with live standings its games count
    in the office at once, without them its confirmed sheet does; the public never sees it."""
    t = factories.TournamentFactory(
        slug="laufend", is_public=True, planned_rounds=2, hide_standings_from=2, standings_live=live
    )
    entries = [factories.EntryFactory(tournament=t, start_number=n) for n in range(1, 5)]
    now = timezone.now()
    for number, status, row in (
        (1, RoundStatus.CLOSED, (12, -12, 8, -8)),
        (2, RoundStatus.RELEASED, (7319, -2771, -2274, -2274)),
    ):
        closed = now if status == RoundStatus.CLOSED else None
        round_ = Round.objects.create(
            tournament=t, number=number, status=status, started_at=now, closed_at=closed
        )
        table = Table.objects.create(round=round_, number=1, size=4)
        for position, entry in enumerate(entries, start=1):
            Seat.objects.create(round=round_, table=table, entry=entry, position=position)
        Game.objects.create(table=table, number=1, kind="normal", **_cells(row))
        Sheet.objects.update_or_create(table=table, defaults={"status": SheetStatus.CONFIRMED})
    factories.settle(t)
    assert 7331 in [line.total for line in standings.compute(t).lines]  # the office counts it
    client = Client()
    for name in ("public-standings", "public-projector-data", "statistics", "statistics-day"):
        text = client.get(reverse(name, args=[t.slug])).content.decode()
        assert "7319" not in text and "7331" not in text, name


def test_the_series_says_how_many_rounds_count_publicly(hidden):
    """Round 3 of three closed rounds is hidden: the public series counts two of them."""
    series = hidden.series_slug  # type: ignore[attr-defined]
    page = Client().get(reverse("series-public", args=[series])).content.decode()
    assert "2 von 3 abgeschlossenen Runden öffentlich" in page
    assert "3 Runden abgeschlossen" not in page
    pdf = file_of(Client().get(reverse("series-export", args=[series, "pdf"])))
    assert "2 von 3 abgeschlossenen Runden öffentlich" in " ".join(pdf_text(pdf).split())
    hidden.hide_standings_from = None
    hidden.save()
    page = Client().get(reverse("series-public", args=[series])).content.decode()
    assert "3 Runden abgeschlossen" in page and "Runden öffentlich" not in page


def test_the_reveal_asks_first_and_the_office_sees_who_changed_it_last(hidden):
    office = _office(hidden)
    url = reverse("manage:standings", args=[hidden.slug])
    page = office.get(url).content.decode()
    form = re.search(r'<form [^>]*id="reveal-form"[^>]*>', page)
    assert form is not None
    assert 'onsubmit="return confirm(this.dataset.confirm)"' in form.group(0)
    assert 'data-confirm="Alle Runden jetzt öffentlich zeigen?' in form.group(0)
    assert "Zuletzt eingestellt am" in page  # made hidden by the fixture, by nobody known
    office.post(reverse("manage:standings-reveal", args=[hidden.slug]))
    page = office.get(url).content.decode()
    assert re.search(r"Alle Runden wurden am [^<]+ von leitung öffentlich gemacht\.", page)
    hidden.hide_standings_from = 2
    hidden._history_user = hidden.director  # type: ignore[attr-defined]
    hidden.save()
    page = office.get(url).content.decode()
    assert re.search(r"Zuletzt eingestellt am [^<]+ von leitung\.", page)
