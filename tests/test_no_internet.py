"""No internet needed: every page, script, stylesheet, font and image comes from the laptop,
and the print pack renders with the network cut off. A hall often has no internet at all."""

import re
import socket
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from tournament.exports.printpack import print_pack
from tournament.management.commands.demo import DEMO_SLUG
from tournament.models import Round, RoundStatus, Table, Tournament

ROOT = Path(settings.BASE_DIR)
# An address with a host in it: http://x.y, https://x.y or protocol-relative //x.y
EXTERNAL = re.compile(r"(?:https?:)?//[a-z0-9-]+(?:\.[a-z0-9-]+)+", re.IGNORECASE)
# XML namespace names (SVG): identifiers that are never fetched.
NAMESPACES = {"//www.w3.org"}


def external_addresses(text: str) -> list[str]:
    found = []
    for match in EXTERNAL.finditer(text):
        address = match.group(0)
        if "//" + address.split("//", 1)[1] in NAMESPACES:
            continue
        found.append(address)
    return found


def our_files():
    for folder, patterns in [
        (ROOT / "templates", ["*.html", "*.txt", "*.css", "*.js"]),
        (ROOT / "tournament" / "static", ["*.css", "*.js", "*.svg", "*.html"]),
    ]:
        for pattern in patterns:
            yield from sorted(folder.rglob(pattern))


def test_the_scan_finds_external_addresses():
    text = '<script src="https://cdn.example.com/x.js"></script> url(//fonts.example.org/a)'
    assert external_addresses(text) == ["https://cdn.example.com", "//fonts.example.org"]
    assert external_addresses('<svg xmlns="http://www.w3.org/2000/svg">') == []


@pytest.mark.parametrize("path", list(our_files()), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_template_or_static_file_points_to_the_internet(path):
    assert external_addresses(path.read_text(encoding="utf-8")) == []


ATTRIBUTES = re.compile(r'(?:src|href|action|poster|data)\s*=\s*["\']([^"\']+)["\']')
CSS_URLS = re.compile(r"""(?:url\(\s*["']?|@import\s+["'])([^"')]+)""")


def local_references(page: str, host: str) -> list[str]:
    """The static files a page loads; fails on any reference to another machine."""
    static = []
    for reference in ATTRIBUTES.findall(page) + CSS_URLS.findall(page):
        parts = urlsplit(reference)
        if parts.scheme in ("mailto", "tel", "data", "javascript") or reference.startswith("#"):
            continue
        assert parts.netloc in ("", host), f"external reference {reference!r}"
        if parts.path.startswith(settings.STATIC_URL) or parts.path.startswith(
            "/" + settings.STATIC_URL
        ):
            static.append(parts.path.split(settings.STATIC_URL, 1)[1])
    return static


@pytest.fixture
def demo(db):
    call_command("demo", verbosity=0)
    return Tournament.objects.get(slug=DEMO_SLUG)


def pages(demo):
    running = demo.rounds.get(status=RoundStatus.RELEASED)
    table = running.tables.order_by("number").first()
    slug = demo.slug
    public = [
        reverse("home"),
        reverse("login"),
        reverse("calculator"),
        reverse("tournament-public", args=[slug]),
        reverse("public-standings", args=[slug]),
        reverse("public-table-plan", args=[slug]),
        reverse("where-do-i-sit", args=[slug]) + "?q=a",
        reverse("keeper-sheet", args=[table.token]),
        reverse("keeper-calculator", args=[table.token]),
        reverse("projector", args=[demo.projector_token]),
        reverse("public-projector", args=[slug]),
        "/gibt-es-nicht/",
    ]
    director = [
        reverse("manage:tournament-list"),
        reverse("manage:entry-list", args=[slug]),
        reverse("manage:round-list", args=[slug]),
        reverse("manage:round-detail", args=[slug, running.number]),
        reverse("manage:board", args=[slug, running.number]),
        reverse("manage:sheet-desk", args=[slug, running.number, table.number]),
        reverse("manage:standings", args=[slug]),
        reverse("manage:referee", args=[slug]),
        reverse("manage:penalty-list", args=[slug]),
        reverse("manage:projector", args=[slug]),
        reverse("manage:ceremony", args=[slug]),
        reverse("admin:index"),
    ]
    return public, director


@pytest.mark.django_db
def test_every_page_loads_only_files_of_the_laptop(demo, client):
    demo.is_public = True
    demo.save()
    public, director = pages(demo)
    admin = Client()
    admin.force_login(get_user_model().objects.get(username="admin"))
    loaded = set()
    for browser, urls in [(client, public), (admin, director)]:
        for url in urls:
            response = browser.get(url)
            assert response.status_code == (404 if url == "/gibt-es-nicht/" else 200), url
            loaded.update(local_references(response.content.decode(), "testserver"))
    assert any(name.endswith(".css") for name in loaded)
    assert any(name.endswith(".js") for name in loaded)
    # What those files load in turn (fonts, images, imports) is local too.
    for name in sorted(loaded):
        found = finders.find(name)
        assert found, f"{name}: not a static file of the site"
        text = Path(found).read_text(encoding="utf-8", errors="replace")
        if name.endswith(".css"):
            assert all(not urlsplit(u).netloc for u in CSS_URLS.findall(text)), name
        assert external_addresses(text) == [], name


@pytest.mark.django_db
def test_the_print_pack_renders_with_the_network_cut_off(demo, monkeypatch):
    def no_network(*args, **kwargs):
        raise OSError("no network in this hall")

    monkeypatch.setattr(socket.socket, "connect", no_network)
    monkeypatch.setattr(socket, "create_connection", no_network)
    round_ = Round.objects.filter(tournament=demo, status=RoundStatus.RELEASED).get()
    pdf = print_pack(round_, "http://192.168.1.20:8000/")
    assert pdf.startswith(b"%PDF") and len(pdf) > 10_000
    assert Table.objects.filter(round=round_).exists()
