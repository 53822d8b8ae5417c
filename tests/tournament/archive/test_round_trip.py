"""A tournament written to a file and read back is the same tournament: the same document,
the same standings."""

from copy import deepcopy
from decimal import Decimal

import pytest

from tests import factories
from tests.tournament.archive.conftest import forget
from tournament import archive
from tournament.archive.restore import ARCHIVE_USER
from tournament.exports import rows
from tournament.models import Entry, Player, Prize, PrizeCategory, Registration, Tournament
from tournament.queries import standings


def _without_moment(doc):
    return {key: value for key, value in doc.items() if key != "created_at"}


def _signed_by_the_archive(doc):
    """``doc`` as a copy made from it on another site reads: every user name (who entered,
    signed, revoked, handled, drew, changed a fee) the archive's placeholder account."""
    doc = deepcopy(doc)

    def placeholder(row, *keys):
        for key in keys:
            if row.get(key):
                row[key] = ARCHIVE_USER

    for entry in doc["entries"]:
        placeholder(entry, "fee_changed_by")
    for round_ in doc["rounds"]:
        for table in round_["tables"]:
            for penalty in table["penalties"]:
                placeholder(penalty, "entered_by", "referee", "revoked_by")
            for call in table.get("referee_calls", []):
                placeholder(call, "handled_by")
        for log in round_.get("draw_logs", []):
            placeholder(log, "user")
    return doc


def _public_standings(tournament):
    computed = standings.compute(tournament)
    listing = rows.standings_rows(computed, public=True)
    teams = rows.team_rows(computed, public=True)
    return [[str(v) for v in row.values] for row in [*listing.rows, *teams.rows]]


def test_it_moves_a_whole_tournament_unchanged(rich):
    before = archive.build(rich.tournament)
    table = _public_standings(rich.tournament)
    data = archive.pack(before)
    forget(rich.tournament)

    copy = archive.restore(archive.unpack(data))

    after = archive.build(copy)
    # The same, but for the user names: those of the laptop it came from are never taken
    # for accounts here (the accounts stay there, and still exist in this test's database).
    assert _without_moment(after) == _without_moment(_signed_by_the_archive(before))
    assert _signed_by_the_archive(before) != before
    assert _public_standings(copy) == table
    assert copy.slug == "herbst"
    assert set(copy.series.values_list("slug", flat=True)) == {"vm", "geheim"}


def test_it_restores_the_public_part_with_the_same_standings(rich):
    before = archive.build(rich.tournament, profile="public")
    table = _public_standings(rich.tournament)
    data = archive.pack(before)
    forget(rich.tournament)

    copy = archive.restore(archive.unpack(data))

    assert _without_moment(archive.build(copy, profile="public")) == _without_moment(before)
    assert _public_standings(copy) == table
    # Only the public series travels.
    assert list(copy.series.values_list("slug", flat=True)) == ["vm"]


def test_a_replica_is_replaced_in_place_and_keeps_its_unnamed_players(rich):
    doc = archive.build(rich.tournament, profile="public")
    forget(rich.tournament)
    replica = archive.restore(doc, slug="verein-herbst", with_series=False)
    unnamed = dict(replica.entries.filter(publish=False).values_list("start_number", "player_id"))

    again = archive.restore(doc, target=replica, with_series=False)

    assert (again.pk, again.slug) == (replica.pk, "verein-herbst")
    assert dict(again.entries.filter(publish=False).values_list("start_number", "player_id")) == (
        unnamed
    )
    assert again.version > replica.version
    rebuilt = archive.build(again, profile="public")
    for key in ("teams", "players", "entries", "rounds"):
        assert rebuilt[key] == doc[key]
    assert not replica.series.exists()


def test_the_same_document_packs_into_the_same_bytes(rich):
    doc = archive.build(rich.tournament, profile="public")
    assert archive.pack(doc) == archive.pack(dict(doc))
    later = dict(doc, created_at="2030-01-01T00:00:00+00:00")
    assert archive.digest(later) == archive.digest(doc)
    assert archive.pack(later) != archive.pack(doc)


def test_a_new_slug_is_made_unique(rich):
    doc = archive.build(rich.tournament)
    doc["tournament"]["uid"] = "0d7c1c52-2b6a-4e4b-9a53-5b8a3f3c1e01"  # another tournament
    for row in [*doc["entries"], *doc["registrations"]]:  # its links are its own
        row["token"] = None
    for round_ in doc["rounds"]:
        for table in round_["tables"]:
            table["token"] = None
    doc["tournament"]["projector_token"] = "andere-leinwand"

    copy = archive.restore(doc)

    assert copy.slug == "herbst-2"
    assert Tournament.objects.count() == 2


@pytest.mark.parametrize("profile", ["full", "public"])
def test_find_player_names_the_players(rich, profile):
    doc = archive.build(rich.tournament, profile=profile)
    forget(rich.tournament)
    chosen = Player.objects.create(first_name="Schon", last_name="Da")
    asked = []

    def find(player):
        asked.append(player.get("last_name"))
        return chosen if player.get("last_name") == "Offen1" else None

    copy = archive.restore(doc, find_player=find)

    assert copy.entries.get(start_number=1).player == chosen
    assert "Offen1" in asked


def test_publishing_again_writes_no_history_and_drops_a_placeholder_no_longer_needed(rich):
    doc = archive.build(rich.tournament, profile="public")
    forget(rich.tournament)
    replica = archive.restore(doc, with_series=False)
    placeholder = replica.entries.get(start_number=2).player_id
    records = (Tournament.history.count(), Entry.history.count())
    # Player 2 consented since: the next state names them.
    doc["players"].append(
        {
            "ref": 99,
            "uid": "5b0a6a58-8a8f-4a43-9d0c-2f7d3c1b0a99",
            "first_name": "Zweite",
            "last_name": "Spielerin",
            "club": "",
            "ddv_number": "",
        }
    )
    doc["entries"][1] |= {"player": 99, "publish": True}

    archive.restore(doc, target=replica, with_series=False)

    assert replica.entries.get(start_number=2).player.last_name == "Spielerin"
    assert not Player.objects.filter(pk=placeholder).exists()
    assert (Tournament.history.count(), Entry.history.count()) == records


@pytest.mark.parametrize("named_first", [True, False])
def test_public_copies_find_an_unconsented_player_by_uid_and_never_rename_them(rich, named_first):
    """Two public copies of one player's tournaments, named in one and not in the other:
    one player here, named by the copy with consent, whichever comes first."""
    hidden = rich.tournament.entries.get(start_number=2).player
    other = factories.TournamentFactory(slug="winter", is_public=True)
    factories.EntryFactory(tournament=other, player=hidden, start_number=5, publish=True)
    unnamed_doc = archive.build(rich.tournament, profile="public")
    named_doc = archive.build(other, profile="public")
    [uid_only] = [p for p in unnamed_doc["players"] if p["uid"] == str(hidden.uid)]
    assert set(uid_only) == {"ref", "uid"}
    other.entries.all().delete()
    other.delete()
    forget(rich.tournament)

    docs = [named_doc, unnamed_doc] if named_first else [unnamed_doc, named_doc]
    copies = [archive.restore(doc, with_series=False) for doc in docs]

    [player] = Player.objects.filter(uid=hidden.uid)
    assert {c.entries.get(player=player).start_number for c in copies} == {2, 5}
    assert (player.first_name, player.last_name, player.club, player.ddv_number) == (
        hidden.first_name,
        hidden.last_name,
        hidden.club,
        hidden.ddv_number,
    )


def test_the_full_file_carries_the_entry_attributes_and_the_prizes(rich):
    """Issue 38: the prize categories with their prizes, the entry attributes and the hidden
    standings' setting move with the tournament."""
    t = rich.tournament
    Tournament.objects.filter(pk=t.pk).update(hide_standings_from=3)
    t.refresh_from_db()
    Entry.objects.filter(tournament=t, start_number=1).update(
        birth_year=1950, sex="f", guest=True, newcomer=False
    )
    Entry.objects.filter(tournament=t, start_number=2).update(sex="m", newcomer=True)
    women = PrizeCategory.objects.create(tournament=t, name="Damen", order=2, sex="f")
    overall = PrizeCategory.objects.create(
        tournament=t, name="Gesamt", order=1, ties="tiebreak", born_until=1960
    )
    Prize.objects.create(category=overall, place=1, kind="share", value=Decimal("40.00"))
    Prize.objects.create(category=overall, place=2, kind="amount", value=Decimal("25.50"))
    Prize.objects.create(category=women, place=1, kind="goods", goods="Präsentkorb")
    before = archive.build(t)
    assert [c["name"] for c in before["prize_categories"]] == ["Gesamt", "Damen"]
    assert before["entries"][0]["birth_year"] == 1950
    data = archive.pack(before)
    forget(t)

    copy = archive.restore(archive.unpack(data))

    after = archive.build(copy)
    assert _without_moment(after) == _without_moment(_signed_by_the_archive(before))
    assert copy.hide_standings_from == 3
    assert Prize.objects.filter(category__tournament=copy).count() == 3


def test_a_file_of_before_the_prizes_restores_without_them(rich):
    doc = archive.build(rich.tournament)
    del doc["prize_categories"]
    del doc["tournament"]["hide_standings_from"]
    for entry in doc["entries"]:
        for key in ("birth_year", "sex", "guest", "newcomer"):
            del entry[key]
    forget(rich.tournament)

    copy = archive.restore(doc)

    assert copy.hide_standings_from is None
    assert not copy.prize_categories.exists()
    assert not Entry.objects.filter(tournament=copy).exclude(sex="").exists()


def test_the_full_file_carries_what_a_registration_gave_for_the_prizes(rich):
    """The year of birth and sex of an online registration move with the full file (never
    with the public one); a file with an impossible value restores nothing."""
    t = rich.tournament
    Registration.objects.filter(tournament=t).update(birth_year=1958, sex="f")
    doc = archive.build(t)
    assert doc["registrations"][0]["birth_year"] == 1958
    assert "registrations" not in archive.build(t, profile="public")
    data = archive.pack(doc)
    forget(t)
    for key, wrong in (("birth_year", 1800), ("birth_year", "1958"), ("sex", "x")):
        broken = deepcopy(doc)
        broken["registrations"][0][key] = wrong
        with pytest.raises(archive.ArchiveError, match="unvollständig oder beschädigt"):
            archive.restore(broken)
        assert not Tournament.objects.filter(uid=doc["tournament"]["uid"]).exists()

    copy = archive.restore(archive.unpack(data))

    registration = Registration.objects.get(tournament=copy)
    assert (registration.birth_year, registration.sex) == (1958, "f")
    assert _without_moment(archive.build(copy)) == _without_moment(_signed_by_the_archive(doc))
