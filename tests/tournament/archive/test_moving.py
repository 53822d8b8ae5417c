"""Moving a tournament: the director's download and upload, and the two commands."""

import io

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import translation

from tests import factories
from tests.tournament.archive.conftest import forget
from tournament import archive
from tournament.models import Tournament


@pytest.fixture
def director_of_rich(client, rich):
    user = rich.tournament.directors.get()
    client.force_login(user)
    return client


def _upload(client, data: bytes, name="herbst-turnier.zip"):
    upload = io.BytesIO(data)
    upload.name = name
    return client.post(reverse("manage:tournament-import"), {"file": upload})


def test_the_director_downloads_the_whole_tournament_privately(director_of_rich, rich):
    response = director_of_rich.get(reverse("manage:tournament-export", args=["herbst"]))

    assert response.status_code == 200
    assert response["Content-Type"] == "application/zip"
    assert 'filename="herbst-turnier.zip"' in response["Content-Disposition"]
    assert "no-store" in response["Cache-Control"]
    doc = archive.unpack(response.content)
    assert doc["profile"] == "full" and doc["tournament"]["uid"] == str(rich.tournament.uid)


def test_the_settings_page_links_the_download(director_of_rich):
    page = director_of_rich.get(reverse("manage:tournament-edit", args=["herbst"]))
    assert reverse("manage:tournament-export", args=["herbst"]) in page.content.decode()


def test_another_director_imports_it_and_directs_it(client, rich):
    data = archive.pack(archive.build(rich.tournament))
    forget(rich.tournament)  # as on another laptop
    other = factories.director(username="anderer")
    client.force_login(other)
    listing = client.get(reverse("manage:tournament-list")).content.decode()
    assert reverse("manage:tournament-import") in listing

    response = _upload(client, data)

    copy = Tournament.objects.get(slug="herbst")
    assert response.status_code == 302 and response["Location"] == copy.get_absolute_url()
    assert list(copy.directors.all()) == [other]
    assert copy.entries.count() == 8


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"Name;Vorname\n", "Das ist keine Kreuzdame-Turnierdatei."),
        (None, "Dieses Turnier gibt es hier schon"),
        ("newer", "neueren Kreuzdame"),
    ],
)
def test_a_wrong_file_gets_a_clear_message_and_changes_nothing(
    director_of_rich, rich, data, message
):
    doc = archive.build(rich.tournament)
    if data is None:
        data = archive.pack(doc)
    elif data == "newer":
        data = archive.pack(doc | {"version": archive.FORMAT_VERSION + 1})
    count = Tournament.objects.count()

    with translation.override("de"):
        response = _upload(director_of_rich, data)

    assert response.status_code == 400
    assert message in response.content.decode()
    assert Tournament.objects.count() == count


def test_the_commands_move_a_tournament(rich, tmp_path):
    path = tmp_path / "herbst.zip"
    out = io.StringIO()
    call_command("exporttournament", "herbst", "--output", str(path), stdout=out)
    assert archive.unpack(path.read_bytes())["profile"] == "full"
    public = tmp_path / "public.zip"
    call_command("exporttournament", "herbst", "--output", str(public), "--profile", "public")
    assert archive.unpack(public.read_bytes())["profile"] == "public"

    with pytest.raises(CommandError, match="is here already"):
        call_command("importtournament", str(path))
    with pytest.raises(CommandError, match="Cannot read"):
        call_command("importtournament", str(tmp_path / "herbst.zip.missing"))


def test_the_import_command_takes_a_short_name(rich, tmp_path):
    path = tmp_path / "herbst.zip"
    doc = archive.build(rich.tournament, profile="public")
    doc["tournament"]["uid"] = "3f2e1d0c-0000-4000-8000-000000000002"
    path.write_bytes(archive.pack(doc))
    out = io.StringIO()

    with pytest.raises(CommandError, match="No account"):
        call_command("importtournament", str(path), "--director", "niemand")
    call_command(
        "importtournament",
        str(path),
        "--slug",
        "kopie",
        "--director",
        "turnierleiterin",
        stdout=out,
    )

    assert "'kopie'" in out.getvalue()
    copy = Tournament.objects.get(slug="kopie")
    assert copy.entries.count() == 8
    assert list(copy.directors.values_list("username", flat=True)) == ["turnierleiterin"]
