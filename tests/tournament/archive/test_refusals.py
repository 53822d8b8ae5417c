"""Every file that is not a tournament this Kreuzdame can read is refused with a clear
message, and nothing is written."""

import io
import json
import zipfile

import pytest
from django.utils import translation

from tournament import archive
from tournament.archive import packing
from tournament.models import Player, Tournament


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def _zip(members: dict[str, object]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as packed:
        for name, content in members.items():
            packed.writestr(name, content if isinstance(content, bytes) else json.dumps(content))
    return buffer.getvalue()


def _refused(data: bytes) -> str:
    with pytest.raises(archive.ArchiveError) as refusal:
        archive.unpack(data)
    return str(refusal.value.message)


@pytest.fixture
def doc(rich):
    return archive.build(rich.tournament)


def test_it_refuses_what_is_no_zip():
    assert _refused(b"Name;Vorname\nMeier;Anna\n") == "This is no Kreuzdame tournament file."


def test_it_refuses_a_zip_of_something_else():
    assert _refused(_zip({"readme.txt": b"hello"})) == "This is no Kreuzdame tournament file."


def test_it_refuses_another_format(doc):
    head = packing.manifest(doc) | {"format": "other-tournament"}
    assert _refused(_zip({"manifest.json": head, "tournament.json": doc})) == (
        "This is no Kreuzdame tournament file."
    )


def test_it_names_a_newer_version_in_the_users_language(doc):
    newer = doc | {"version": archive.FORMAT_VERSION + 1}
    data = _zip({"manifest.json": packing.manifest(newer), "tournament.json": newer})
    assert "newer Kreuzdame (file format 2" in _refused(data)
    with translation.override("de"):
        assert "neueren Kreuzdame" in _refused(data)


def test_it_refuses_a_file_too_big(monkeypatch, doc):
    assert _refused(b"0" * (packing.MAX_FILE_BYTES + 1)) == "The tournament file is too big."
    # A small file that would inflate beyond the limit is not inflated.
    monkeypatch.setattr(packing, "MAX_CONTENT_BYTES", 1000)
    assert _refused(archive.pack(doc)) == "The tournament file is too big."


@pytest.mark.parametrize("key", ["rounds", "entries", "tournament", "created_at"])
def test_it_refuses_a_document_without_its_keys(doc, key):
    broken = {k: v for k, v in doc.items() if k != key}
    data = _zip({"manifest.json": packing.manifest(doc), "tournament.json": broken})
    assert _refused(data) == "The tournament file is incomplete or damaged."


@pytest.mark.parametrize("content", [b"{not json", b"[" * 200_000 + b"]" * 200_000])
def test_it_refuses_a_damaged_content(doc, content):
    data = _zip({"manifest.json": packing.manifest(doc), "tournament.json": content})
    assert _refused(data) == "The tournament file is damaged."


def test_it_refuses_a_tournament_that_is_here_already(doc, rich):
    with pytest.raises(archive.ArchiveError, match="is here already"):
        archive.restore(archive.unpack(archive.pack(doc)))
    assert Tournament.objects.count() == 1


def test_it_refuses_to_replace_another_tournament(rich):
    other = Tournament.objects.create(name="Anderes", slug="anderes", date=rich.tournament.date)
    doc = archive.build(rich.tournament, profile="public")
    with pytest.raises(archive.ArchiveError, match="another tournament"):
        archive.restore(doc, target=other)
    assert not other.entries.exists()


def test_a_broken_reference_writes_nothing(doc, rich):
    doc["tournament"]["uid"] = "7e1cf0b3-32a5-4f0e-8d0c-1b2d3c4e5f60"
    doc["rounds"][0]["tables"][0]["seats"][0][1] = 99  # nobody has start number 99
    tournaments, players = Tournament.objects.count(), Player.objects.count()
    with pytest.raises(archive.ArchiveError, match="incomplete or damaged"):
        archive.restore(doc, slug="kopie")
    assert (Tournament.objects.count(), Player.objects.count()) == (tournaments, players)


def test_a_replica_keeps_its_contents_when_the_new_file_is_broken(rich):
    doc = archive.build(rich.tournament, profile="public")
    broken = json.loads(json.dumps(doc))
    broken["entries"][0]["status"] = "vanished"
    with pytest.raises(archive.ArchiveError):
        archive.restore(broken, target=rich.tournament)
    assert rich.tournament.entries.count() == 8
    assert Tournament.objects.get(pk=rich.tournament.pk).rounds.count() == 3
