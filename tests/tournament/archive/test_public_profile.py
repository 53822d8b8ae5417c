"""The public profile is what leaves the hall: what the public pages show, nothing else."""

import io
import json
import zipfile

import pytest

from tests import factories
from tests.tournament.archive.conftest import forget
from tournament import archive
from tournament.models import Entry, Penalty, Round
from tournament.queries import standings


def _members(data: bytes) -> dict[str, str]:
    with zipfile.ZipFile(io.BytesIO(data)) as packed:
        return {name: packed.read(name).decode() for name in packed.namelist()}


def _keys(value, found=None):
    found = set() if found is None else found
    if isinstance(value, dict):
        for key, inner in value.items():
            found.add(key)
            _keys(inner, found)
    elif isinstance(value, list):
        for inner in value:
            _keys(inner, found)
    return found


def test_no_private_data_leaves_in_the_public_file(rich):
    # What the prize categories ask of an entry (issue 38): personal data, never public.
    Entry.objects.filter(tournament=rich.tournament).update(
        birth_year=1941, sex="d", guest=True, newcomer=True
    )
    data = archive.pack(archive.build(rich.tournament, profile="public"))
    members = _members(data)
    assert set(members) == {"manifest.json", "tournament.json"}
    text = "\n".join(members.values())

    # The file is not empty: names with consent, the seats and the results are there.
    assert "Offen1" in text and "DDV-OFFEN-1" in text and "Vereinsmeisterschaft" in text
    for secret in rich.secrets:
        assert secret not in text, secret
        assert secret.encode() not in data, secret
    private_keys = {
        "confirm_code",
        "token",
        "fee",
        "fee_changed_by",
        "checked_in",
        "email",
        "reason",
        "revoke_reason",
        "referee",
        "entered_by",
        "referee_calls",
        "submitted_by",
        "confirmed_by",
        "extra_reason",
        "registration_consent",
        "projector_token",
        "draw_seed",
        "category",
        "history",
        "birth_year",
        "sex",
        "guest",
        "newcomer",
        "prize_categories",
    }
    for member in members.values():
        assert not _keys(json.loads(member)) & private_keys
    assert "1941" not in text
    # Of a player without consent only the uid travels: no name, club or DDV number (above).
    doc = json.loads(members["tournament.json"])
    hidden = [p for p in doc["players"] if p["uid"] in rich.hidden_uids]
    assert len(hidden) == len(rich.hidden_uids) == 4
    assert all(set(p) == {"ref", "uid"} for p in hidden)


def test_only_what_counts_is_public(rich):
    Penalty.objects.counting().update(number=7)  # after penalties that do not count
    doc = archive.build(rich.tournament, profile="public")

    assert [r["number"] for r in doc["rounds"]] == [1, 2]  # the drawn round is a plan only
    second = doc["rounds"][1]["tables"]
    # Round 2 runs: the confirmed sheet counts, the open one shows no games yet.
    assert [len(t["games"]) for t in second] == [2, 0]
    penalties = [p for r in doc["rounds"] for t in r["tables"] for p in t["penalties"]]
    assert [p["points"] for p in penalties] == [[-3, 1, 1, 1]]  # no draft, no revoked one
    assert [p["number"] for p in penalties] == [1]
    unnamed = [e for e in doc["entries"] if not e["publish"]]
    players = {p["ref"]: p for p in doc["players"]}
    # A player without consent: their uid alone (it links their tournaments on the service).
    assert unnamed and all(set(players[e["player"]]) == {"ref", "uid"} for e in unnamed)
    assert sorted(players[e["player"]]["uid"] for e in unnamed) == sorted(rich.hidden_uids)
    assert len(doc["players"]) == 8


def test_results_held_back_keep_the_table_plan(rich):
    def visible(round_: Round) -> bool:
        return round_.number != 1

    doc = archive.build(rich.tournament, profile="public", results_visible=visible)

    first = doc["rounds"][0]
    assert first["status"] == "released" and first["results"] == []
    assert all(t["seats"] and not t["games"] and not t["penalties"] for t in first["tables"])
    assert all(t["sheet"]["status"] == "open" for t in first["tables"])
    assert not doc["tournament"]["standings_live"]


def test_a_private_tournament_publishes_only_who_it_is(rich):
    rich.tournament.is_public = False
    rich.tournament.save()

    doc = archive.build(rich.tournament, profile="public")

    assert doc["tournament"] == {
        "uid": str(rich.tournament.uid),
        "slug": "herbst",
        "name": "Herbstturnier",
        "date": "2026-12-05",
        "is_public": False,
    }
    assert all(doc[key] == [] for key in ("teams", "players", "entries", "rounds", "series"))
    assert archive.unpack(archive.pack(doc)) == doc


@pytest.mark.parametrize(("profile", "queries"), [("public", 10), ("full", 16)])
def test_a_document_takes_the_same_queries_whatever_the_size(
    rich, django_assert_num_queries, profile, queries
):
    with django_assert_num_queries(queries):
        archive.build(rich.tournament, profile=profile)
    round_ = rich.tournament.rounds.get(number=1)
    table = factories.released_table(rich.tournament, round_number=1, table_number=3, first_start=9)
    assert table.round == round_
    with django_assert_num_queries(queries):
        archive.build(rich.tournament, profile=profile)


def test_a_copy_with_results_held_back_counts_no_round_as_zero(rich):
    doc = archive.build(rich.tournament, profile="public", results_visible=lambda r: False)
    forget(rich.tournament)

    copy = archive.restore(doc)

    table = standings.compute(copy)
    assert table.round_numbers == []
    assert all(line.total == 0 and not line.rounds for line in table.lines)
    assert copy.status == "running"
