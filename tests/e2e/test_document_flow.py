"""A visitor asks for the series as PDF while the worker is busy: the page says the file is
being made, and when the worker has made it the browser downloads it by itself."""

import datetime

import pytest
from playwright.sync_api import expect
from pypdf import PdfReader

from tests.factories import PlayerFactory, make_series, played_tournament
from tournament.models import Document
from tournament.tasks import documents

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_pdf_is_made_in_the_background_and_downloads_itself(live_server, page, settings):
    # A queue nobody works on yet: the worker is this test, below.
    # Both queues: the mail tasks check theirs when a test first loads them.
    settings.TASKS = {
        "default": {
            "BACKEND": "django_tasks.backends.dummy.DummyBackend",
            "QUEUES": ["documents", "mail"],
        }
    }
    a, b, c, d = (PlayerFactory(last_name=name) for name in ("Adler", "Bär", "Clown", "Dachs"))
    played, _ = played_tournament(datetime.date(2026, 1, 10), 1, [{a: 6, b: 2, c: -2, d: -6}])
    played.is_public = True
    played.save()
    series = make_series([played], is_public=True)

    page.goto(f"{live_server.url}/serie/{series.slug}/")
    page.get_by_role("link", name="PDF").click()
    expect(page.locator("#document-progress")).to_contain_text("wird erstellt")
    document = Document.objects.get()
    with page.expect_download() as fetched:
        documents.render(document)  # the worker's part
    download = fetched.value
    assert download.suggested_filename == "vm-serienwertung.pdf"
    with open(download.path(), "rb") as made:
        assert "Vereinsmeisterschaft" in PdfReader(made).pages[0].extract_text()
    expect(page.locator("#document-link")).to_be_visible()
