"""What a tournament file may not do on the laptop that imports it: add the tournament to a
series someone else directs here, or make anything look done by an account here (a file is
a file: anyone may have written it)."""

import io

import pytest
from django.core.management import call_command
from django.urls import reverse

from tests import factories
from tests.tournament.archive.conftest import forget
from tournament import archive
from tournament.archive.restore import ARCHIVE_USER
from tournament.models import Entry, Penalty, RefereeCall, Series, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def file_and_series(rich):
    """The full file of ``rich`` and, on this laptop, its series "vm" (same uid, directed by
    "turnierleiterin") without the tournament."""
    doc = archive.build(rich.tournament)
    series = Series.objects.get(slug="vm")
    series.tournaments.remove(rich.tournament)
    forget(rich.tournament)
    return doc, series


def upload(client, doc):
    data = io.BytesIO(archive.pack(doc))
    data.name = "herbst-turnier.zip"
    response = client.post(reverse("manage:tournament-import"), {"file": data})
    assert response.status_code == 302, response.content.decode()
    return Tournament.objects.get(uid=doc["tournament"]["uid"])


def test_a_director_cannot_join_a_series_someone_else_directs(client, file_and_series):
    doc, theirs = file_and_series
    other = factories.director(username="anderer")
    mine = factories.TournamentFactory(slug="mein-turnier", directors=[other])
    foreign = factories.TournamentFactory(slug="fremdes-turnier")
    listed = next(s for s in doc["series"] if s["uid"] == str(theirs.uid))
    listed["tournaments"] += [str(mine.uid), str(foreign.uid)]
    client.force_login(other)

    copy = upload(client, doc)

    assert not theirs.tournaments.exists()
    made = copy.series.get(name="Vereinsmeisterschaft")
    assert made.uid != theirs.uid and made.slug == "vm-2"
    assert list(made.directors.all()) == [other]
    # Of the file's other tournaments only those the importing director manages.
    assert set(made.tournaments.all()) == {copy, mine}


def test_a_director_joins_a_series_they_direct(client, file_and_series):
    doc, theirs = file_and_series
    client.force_login(theirs.directors.get())

    copy = upload(client, doc)

    assert list(theirs.tournaments.all()) == [copy]
    assert Series.objects.filter(name="Vereinsmeisterschaft").count() == 1


def test_the_import_command_joins_the_series_as_an_administrator(file_and_series, tmp_path):
    doc, theirs = file_and_series
    file = tmp_path / "herbst.zip"
    file.write_bytes(archive.pack(doc))
    call_command("importtournament", str(file), stdout=io.StringIO())
    assert list(theirs.tournaments.values_list("slug", flat=True)) == ["herbst"]


def test_user_names_of_the_file_are_never_taken_for_accounts_here(client, file_and_series):
    doc, _series = file_and_series
    admin = factories.UserFactory(username="admin", is_superuser=True, is_staff=True)
    for round_ in doc["rounds"]:
        for table in round_["tables"]:
            for penalty in table["penalties"]:
                penalty["entered_by"] = penalty["referee"] = "admin"
    named = [
        name
        for round_ in doc["rounds"]
        for table in round_["tables"]
        for name in [p["entered_by"] for p in table["penalties"]]
        + [c["handled_by"] for c in table.get("referee_calls", [])]
    ]
    assert "admin" in named
    client.force_login(factories.director(username="anderer"))

    copy = upload(client, doc)

    penalties = Penalty.objects.filter(tournament=copy)
    assert penalties.exists()
    accounts = {
        *penalties.values_list("entered_by__username", "referee__username", "revoked_by__username"),
        *RefereeCall.objects.filter(table__round__tournament=copy).values_list(
            "handled_by__username"
        ),
        *Entry.objects.filter(tournament=copy).values_list("fee_changed_by__username"),
    }
    seen = {name for row in accounts for name in row if name}
    assert seen == {ARCHIVE_USER}
    assert not Penalty.objects.filter(entered_by=admin).exists()
    assert not Penalty.objects.filter(referee__username="oberschiedsrichter").exists()
