"""One public address for everything that leaves the screen: the QR codes of the print pack
(decoded from the rendered PDF with zbar, as a phone's camera reads them), the keeper link
on the table page, the referee login link and the export command use ``SITE_URL`` — never the
address the director's own browser happens to use."""

import shutil
import subprocess

import pytest
from django.core.management import call_command
from django.urls import reverse

from tests.downloads import file_of
from tests.factories import released_table

pytestmark = pytest.mark.django_db

HALL = "http://192.168.1.20:8000/"


def decoded_qr_codes(pdf: bytes, workdir) -> list[str]:
    """Every QR code on every page of ``pdf``: rendered by poppler, read by zbar."""
    assert shutil.which("pdftoppm") and shutil.which("zbarimg"), "make test installs them"
    (workdir / "pack.pdf").write_bytes(pdf)
    subprocess.run(  # noqa: S603
        ["pdftoppm", "-r", "110", "-png", str(workdir / "pack.pdf"), str(workdir / "page")],  # noqa: S607
        check=True,
    )
    pages = sorted(workdir.glob("page*.png"))
    assert pages
    found = []
    for page in pages:
        result = subprocess.run(  # noqa: S603
            ["zbarimg", "--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", str(page)],  # noqa: S607
            capture_output=True,
            text=True,
        )
        assert result.returncode in (0, 4), result.stderr  # 4: a page without a code
        found += result.stdout.split()
    return found


@pytest.fixture
def tables(tournament):
    four = released_table(tournament, size=4, table_number=1, first_start=1)
    five = released_table(tournament, size=5, table_number=2, first_start=11)
    return [four, five]


def keeper_path(table):
    return reverse("keeper-sheet", args=[table.token])


def test_every_qr_code_of_the_print_pack_holds_the_site_url(
    director_client, tournament, tables, settings, tmp_path
):
    settings.SITE_URL = HALL
    response = director_client.get(reverse("manage:print-pack", args=[tournament.slug, 1]))
    assert response.status_code == 200
    codes = decoded_qr_codes(file_of(response), tmp_path)
    expected = {HALL.rstrip("/") + keeper_path(t) for t in tables}
    # One code on each table's Spielliste and one on its table card.
    assert sorted(codes) == sorted([*expected, *expected])
    assert not any("testserver" in code or "127.0.0.1" in code for code in codes)


def test_without_a_site_url_the_qr_codes_use_the_request_host(
    director_client, tournament, tables, settings, tmp_path
):
    settings.SITE_URL = ""
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "laptop.local"]
    response = director_client.get(
        reverse("manage:print-pack", args=[tournament.slug, 1]), HTTP_HOST="laptop.local:8000"
    )
    codes = decoded_qr_codes(file_of(response), tmp_path)
    assert set(codes) == {"http://laptop.local:8000" + keeper_path(t) for t in tables}


def test_the_table_page_shows_the_keeper_link_with_the_site_url(
    director_client, tournament, tables, settings
):
    settings.SITE_URL = HALL
    table = tables[0]
    page = director_client.get(
        reverse("manage:sheet-desk", args=[tournament.slug, 1, table.number])
    ).content.decode()
    assert HALL.rstrip("/") + keeper_path(table) in page
    assert "http://testserver/tisch/" not in page


def test_the_referee_login_link_uses_the_site_url(director_client, tournament, settings):
    settings.SITE_URL = HALL
    page = director_client.get(reverse("manage:referees", args=[tournament.slug])).content
    assert f"{HALL}login/".encode() in page
    assert b"http://testserver/login/" not in page


def test_the_export_command_prints_qr_codes_for_the_site_url(
    tournament, tables, settings, tmp_path
):
    settings.SITE_URL = HALL
    out = tmp_path / "pack.pdf"
    call_command("export", tournament=tournament.slug, what="sheets", format="pdf", output=str(out))
    work = tmp_path / "pages"
    work.mkdir()
    codes = decoded_qr_codes(out.read_bytes(), work)
    assert codes and all(code.startswith(HALL.rstrip("/") + "/tisch/") for code in codes)
