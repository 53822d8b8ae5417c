"""Heavy documents made in the background (tournament/tasks/documents.py): one render per state,
an outdated file never served, the access rules of the old downloads, a limit per address
for visitors, a failure shown as a message, the worker and its supervisor."""

import dataclasses
import datetime
import sys
from io import BytesIO

import pytest
from django.db import OperationalError, connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from tests.downloads import file_of
from tests.factories import TournamentFactory, director, make_series, released_table
from tests.tournament.exports.test_exports import pdf_text
from tests.tournament.test_rounds import field
from tests.waiting import Notes
from tournament.base.versions import mark_changed
from tournament.domain import draw as draw_domain
from tournament.management.commands import worker as worker_command
from tournament.models import Document, DocumentStatus
from tournament.ops.hall import Supervisor
from tournament.tasks import documents

pytestmark = pytest.mark.django_db

# Both queues of the site: a task module imported for the first time under this setting (the
# mail tasks, when a test is the first of its process to load the URLs) checks its queue
# against it, so a missing one failed the test in some orders only.
QUEUED_ONLY = {
    "default": {
        "BACKEND": "django_tasks.backends.dummy.DummyBackend",
        "QUEUES": ["documents", "mail"],
    }
}


@pytest.fixture
def queue(settings):
    """A queue that keeps the tasks instead of running them (no worker): what was asked for."""
    from django_tasks import default_task_backend

    settings.TASKS = {**QUEUED_ONLY}
    default_task_backend.clear()
    return default_task_backend


@pytest.fixture
def cup(tournament):
    tournament.is_public = True
    tournament.save()
    released_table(tournament)
    return make_series([tournament], is_public=True)


def test_a_second_request_for_the_same_state_joins_the_first(queue, tournament):
    first = documents.request("standings-pdf", tournament, "de")
    second = documents.request("standings-pdf", tournament, "de")
    assert first.pk == second.pk and first.status == DocumentStatus.QUEUED
    assert len(queue.results) == 1  # one render queued
    english = documents.request("standings-pdf", tournament, "en")
    assert english.pk != first.pk and len(queue.results) == 2


def test_a_page_asked_twice_while_the_file_is_made_queues_one_render(queue, cup, client):
    url = reverse("series-export", args=[cup.slug, "pdf"])
    for _ in range(3):
        page = client.get(url)
        assert page.status_code == 202
        assert "wird erstellt" in page.content.decode()
    assert len(queue.results) == 1
    assert client.get(url + "?status=1").json() == {"status": "queued"}


def test_the_worker_makes_the_file_the_page_then_serves(database_queue, cup, client):
    """The queue in the database, as on the day: the page first, the worker, then the file."""
    url = reverse("series-export", args=[cup.slug, "xlsx"])
    assert client.get(url).status_code == 202
    database_queue()
    assert client.get(url + "?status=1").json() == {"status": "ready"}
    response = client.get(url)
    assert response["Content-Disposition"] == 'attachment; filename="vm-serienwertung.xlsx"'
    book = load_workbook(BytesIO(file_of(response)))
    assert "Vereinsmeisterschaft" in str(book.worksheets[0]["A1"].value)


def test_a_locked_database_does_not_end_the_worker(database_queue, cup, client, monkeypatch):
    """SQLite's write lock held beyond its timeout while the worker claims a task (a long
    import, a backup): the worker tries again instead of dying with the file unmade."""
    monkeypatch.setattr(f"{worker_command.__name__}.time.sleep", lambda seconds: None)
    claims = []
    run = worker_command.Worker.run

    def locked_once(self):
        claims.append(1)
        if len(claims) == 1:
            raise OperationalError("database is locked")
        return run(self)

    monkeypatch.setattr(worker_command.Worker, "run", locked_once)
    url = reverse("series-export", args=[cup.slug, "xlsx"])
    assert client.get(url).status_code == 202
    database_queue()
    assert len(claims) == 2
    assert client.get(url + "?status=1").json() == {"status": "ready"}


def test_an_idle_worker_looks_at_the_queue_without_taking_the_write_lock(monkeypatch):
    """Between documents the worker only reads (a keeper's save never waits for its
    polls); the queue's own worker claims a task only when one is there."""
    monkeypatch.setattr(f"{worker_command.__name__}.close_old_connections", lambda: None)
    with CaptureQueriesContext(connection) as queries:
        assert worker_command._queued() is False
    assert [q["sql"].split()[0] for q in queries.captured_queries] == ["SELECT"]


def test_an_outdated_file_is_never_served(queue, cup, client):
    document = documents.request("series-pdf", cup, "de")
    documents.render(document)
    document.refresh_from_db()
    assert document.status == DocumentStatus.READY and document.size > 0
    assert not documents.outdated(document)
    # A closed round corrected: what the series counts changed.
    mark_changed(cup.tournaments.get(), results=True)
    assert documents.outdated(document)
    page = client.get(reverse("series-export", args=[cup.slug, "pdf"]))
    assert page.status_code == 202  # the page, not the old file
    assert "neuere" in page.content.decode()
    newer = Document.objects.exclude(pk=document.pk).get()
    assert newer.status == DocumentStatus.QUEUED and newer.version != document.version


def test_a_render_of_a_state_gone_meanwhile_is_dropped_unmade(queue, tournament):
    document = documents.request("standings-xlsx", tournament, "de")
    mark_changed(tournament, results=True)  # e.g. a sheet confirmed, a round closed
    documents.render(document)
    assert not Document.objects.filter(pk=document.pk).exists()


def test_the_keepers_game_saves_do_not_outdate_a_file_being_made(queue, tournament):
    """Games are saved every second during a round; a file takes seconds: it is made from
    what its pages count (confirmed sheets, closed rounds, seats), not outdated by each game."""
    document = documents.request("standings-pdf", tournament, "de")
    mark_changed(tournament)  # a game saved
    assert not documents.outdated(document)


def test_a_new_file_removes_the_older_ones_of_the_same_document(cup, client, settings):
    url = reverse("series-export", args=[cup.slug, "pdf"])
    file_of(client.get(url))
    first = Document.objects.get()
    mark_changed(cup.tournaments.get(), results=True)
    file_of(client.get(url))
    kept = Document.objects.get()
    assert kept.pk != first.pk and kept.version != first.version
    assert [p.name for p in settings.DOCUMENTS_DIR.iterdir()] == [kept.file_name]


def test_the_files_read_back(cup, client):
    client.cookies["django_language"] = "en"
    pdf = file_of(client.get(reverse("series-export", args=[cup.slug, "pdf"])))
    assert "Vereinsmeisterschaft" in pdf_text(pdf)
    tournament = cup.tournaments.get()
    owner = tournament.directors.get() if tournament.directors.exists() else None
    assert owner is not None
    client.force_login(owner)
    standings = client.get(
        reverse("manage:standings-export", args=[tournament.slug, "standings", "pdf"])
    )
    assert len(PdfReader(BytesIO(file_of(standings))).pages) >= 1
    book = client.get(reverse("manage:results-export", args=[tournament.slug, "xlsx"]))
    assert load_workbook(BytesIO(file_of(book))).worksheets[0].max_row >= 2


def test_access_stays_as_before(cup, client, tournament):
    series_url = reverse("series-export", args=[cup.slug, "pdf"])
    pack = reverse("manage:print-pack", args=[tournament.slug, 1])
    cards = reverse("manage:player-cards", args=[tournament.slug])
    assert client.get(pack).status_code == 302  # to the login
    assert client.get(cards).status_code == 302
    cup.is_public = False
    cup.save()
    assert client.get(series_url).status_code == 404
    assert client.get(series_url + "?status=1").status_code == 404
    client.force_login(director(username="fremd"))
    TournamentFactory(slug="fremd")
    assert client.get(pack).status_code == 404
    assert client.get(cards).status_code == 404
    assert not Document.objects.exists()


def test_the_secret_files_are_never_cached(director_client, tournament):
    released_table(tournament)
    for url in (
        reverse("manage:print-pack", args=[tournament.slug, 1]),
        reverse("manage:player-cards", args=[tournament.slug]),
    ):
        response = director_client.get(url)
        assert response["Cache-Control"] == "private, no-store"
        assert file_of(response).startswith(b"%PDF")


def test_visitors_are_limited_per_address(settings, queue, cup, client):
    settings.DOWNLOADS_PER_ADDRESS = 2
    url = reverse("series-export", args=[cup.slug, "pdf"])
    assert client.get(url, REMOTE_ADDR="192.0.2.7").status_code == 202
    assert client.get(url, REMOTE_ADDR="192.0.2.7").status_code == 202
    refused = client.get(url, REMOTE_ADDR="192.0.2.7")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "Zu viele Downloads" in refused.content.decode()
    assert client.get(url, REMOTE_ADDR="192.0.2.8").status_code == 202  # another address
    # The progress page's poll is no download.
    assert client.get(url + "?status=1", REMOTE_ADDR="192.0.2.7").status_code == 200


def test_asking_again_for_a_queued_document_writes_nothing(settings, queue, cup, client):
    """The flood's downloads cost the database reads only: the limit is counted in memory,
    the document looked up before it is created."""
    url = reverse("series-export", args=[cup.slug, "pdf"])
    assert client.get(url).status_code == 202
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 202
    statements = {q["sql"].split()[0] for q in queries.captured_queries}
    assert statements == {"SELECT"}, statements


def test_one_ipv6_network_counts_as_one_address(settings, queue, cup, client):
    settings.DOWNLOADS_PER_ADDRESS = 1
    url = reverse("series-export", args=[cup.slug, "xlsx"])
    client.cookies["django_language"] = "en"
    assert client.get(url, REMOTE_ADDR="2001:db8:1:2::10").status_code == 202
    refused = client.get(url, REMOTE_ADDR="2001:db8:1:2:ffff::1")  # same /64
    assert refused.status_code == 429 and "Too many downloads" in refused.content.decode()
    assert client.get(url, REMOTE_ADDR="2001:db8:1:3::10").status_code == 202


def test_directors_are_not_limited(settings, queue, director_client, tournament):
    settings.DOWNLOADS_PER_ADDRESS = 1
    url = reverse("manage:standings-export", args=[tournament.slug, "standings", "pdf"])
    for _ in range(3):
        assert director_client.get(url).status_code == 202


def test_a_failed_render_shows_the_error_not_a_traceback(
    director_client, tournament, monkeypatch, caplog
):
    def broken(subject, variant):
        raise RuntimeError("secret detail of the server")

    kind = documents.KINDS["standings-pdf"]
    monkeypatch.setitem(
        documents.KINDS,
        "standings-pdf",
        dataclasses.replace(kind, make=broken),
    )
    url = reverse("manage:standings-export", args=[tournament.slug, "standings", "pdf"])
    page = director_client.get(url)
    body = page.content.decode()
    assert page.status_code == 200
    assert "konnte nicht erstellt werden" in body
    assert "secret detail" not in body and "Traceback" not in body
    assert "secret detail of the server" in caplog.text  # for the administrator
    # Asked again: the same failure is shown, nothing made again unasked.
    assert Document.objects.get().status == DocumentStatus.FAILED
    monkeypatch.setitem(documents.KINDS, "standings-pdf", kind)
    again = director_client.post(url)  # "Try again"
    assert file_of(again).startswith(b"%PDF")


def test_a_drawn_round_has_its_print_pack_queued(settings, queue, tournament, director_user):
    settings.PRINT_PACK_ON_DRAW = True
    field(tournament, 8)
    draw_domain.draw(tournament, director_user, seed=3, base_url="http://192.168.1.20:8000/")
    pack = Document.objects.get()
    assert pack.kind == "printpack" and pack.variant == "1 http://192.168.1.20:8000/"
    assert len(queue.results) == 1
    settings.PRINT_PACK_ON_DRAW = False
    draw_domain.draw(tournament, director_user, seed=4, base_url="http://192.168.1.20:8000/")
    assert Document.objects.count() == 1


def test_a_worker_that_dies_is_started_again_and_stopped_with_the_hall():
    notes = Notes()

    class Watched(Supervisor):
        def _spawn(self) -> None:
            super()._spawn()
            notes.tell()

    supervisor = Watched([sys.executable, "-c", "pass"], pause=0.05)
    supervisor.start()
    notes.wait_for(lambda: supervisor.starts >= 3)
    supervisor.stop()
    assert supervisor.starts >= 3
    assert supervisor.process is not None and supervisor.process.poll() is not None


def test_a_supervised_worker_stops_when_the_hall_is_gone(database_queue, monkeypatch):
    """A hall killed outright (SIGKILL, a closed terminal window) cannot stop its worker:
    the worker notices that its parent is gone and stops by itself."""
    parents = iter([4242, 4242, 1])  # at the start, one look at the queue, then orphaned
    monkeypatch.setattr(f"{worker_command.__name__}.os.getppid", lambda: next(parents))
    monkeypatch.setattr(worker_command, "_queued", lambda: False)
    monkeypatch.setattr(f"{worker_command.__name__}.time.sleep", lambda seconds: None)
    database_queue(batch=False, supervised=True)  # returns: not an endless loop
    assert next(parents, None) is None  # it looked until its parent was gone, no further


def test_the_hall_stops_its_worker():
    supervisor = Supervisor([sys.executable, "-c", "import time; time.sleep(60)"])
    supervisor.start()
    supervisor.stop()
    assert supervisor.starts == 1 and supervisor.process.poll() is not None


def test_a_series_fingerprint_moves_with_its_tournaments_and_the_date(cup, monkeypatch):
    before = documents.current_version("series-pdf", cup)
    assert documents.current_version("series-pdf", cup) == before
    assert documents.current_version("series-all-pdf", cup) != before
    mark_changed(cup.tournaments.get())  # a game of the running round: not counted yet
    assert documents.current_version("series-pdf", cup) == before
    mark_changed(cup.tournaments.get(), results=True)  # a round closed or corrected
    after = documents.current_version("series-pdf", cup)
    assert after != before
    tomorrow = datetime.date.today() + datetime.timedelta(days=1)
    monkeypatch.setattr("django.utils.timezone.localdate", lambda: tomorrow)
    assert documents.current_version("series-pdf", cup) != after
