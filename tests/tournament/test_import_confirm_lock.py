"""Confirming an import is prepared outside the transaction and written in one short one
(issue 33, item 4): eight directors' confirms at once all finish, none with "database is
locked" or an error page, every list is in exactly once, and a confirm that fails writes
nothing."""

import threading

import pytest
from django.contrib.messages import get_messages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from django.urls import reverse

from tests.factories import TournamentFactory, director
from tournament.domain import bulk, player_import
from tournament.models import Entry, Player, Tournament

WAIT = 120  # seconds: only reached when the test fails
LINES = 60


def csv_file(tag: str) -> SimpleUploadedFile:
    """A list of LINES players: one person who plays everywhere (the same DDV member
    number in every file) and the others only here."""
    lines = ["Vorname;Nachname;Verein;DDV-Nr;Team", "Anna;Überall;Kreuz Köln;D-100;"]
    lines += [f"Spieler{n};{tag};Club {n % 5};;Team {n % 3}" for n in range(2, LINES + 1)]
    return SimpleUploadedFile(f"{tag}.csv", "\n".join(lines).encode(), content_type="text/csv")


def previewed(user, tournament: Tournament) -> tuple[Client, str]:
    """A director's own browser with the uploaded file's preview; its confirm token."""
    client = Client()
    client.force_login(user)
    response = client.post(
        reverse("manage:import", args=[tournament.slug]), {"file": csv_file(tournament.slug)}
    )
    assert response.status_code == 200 and response.context["preview"].ok
    return client, response.context["token"]


@pytest.mark.django_db(transaction=True)
def test_eight_confirms_at_once_all_finish_exactly_once():
    """One director confirms the lists of seven tournaments at once, and the first list
    a second time in another tab. Before, the confirms held SQLite's write lock for seconds
    each, and eight at once gave "database is locked" and error pages."""
    user = director(username="leiterin")
    tournaments = [TournamentFactory(slug=f"turnier-{n}", directors=[user]) for n in range(1, 8)]
    browsers = [previewed(user, t) for t in tournaments]
    browsers.append(previewed(user, tournaments[0]))  # the same list again, another tab
    targets = [*tournaments, tournaments[0]]
    start = threading.Barrier(len(browsers))
    outcome: dict[int, object] = {}

    def confirm(index: int) -> None:
        client, token = browsers[index]
        url = reverse("manage:import-confirm", args=[targets[index].slug])
        try:
            start.wait(WAIT)
            response = client.post(url, {"token": token})
            notes = [str(m) for m in get_messages(response.wsgi_request)]
            outcome[index] = (response.status_code, response.get("Location", ""), notes)
        except Exception as exc:  # a 500 raises here in the test client
            outcome[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=confirm, args=(i,)) for i in range(len(browsers))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(WAIT)
    assert len(outcome) == len(browsers)
    assert not [o for o in outcome.values() if isinstance(o, Exception)], outcome
    registered = [f"{LINES} Spieler angemeldet."]
    done = [i for i, (_code, _to, notes) in outcome.items() if notes == registered]
    refused = [i for i in outcome if i not in done]
    # Every tournament's list is in; the first one's exactly once.
    assert set(range(1, 7)) <= set(done)
    assert len(refused) == 1 and refused[0] in (0, 7)
    code, to, notes = outcome[refused[0]]
    assert code == 302 and to.endswith("/import/")
    assert notes[0].startswith("Es wurde nichts importiert. Zeile ")
    assert "ist für dieses Turnier bereits mit Startnummer" in notes[0]
    for tournament in tournaments:
        numbers = sorted(tournament.entries.values_list("start_number", flat=True))
        assert numbers == list(range(1, LINES + 1))
        assert tournament.teams.count() == 3
        assert Entry.history.filter(tournament_id=tournament.pk).count() == LINES
    # The player with the member number exists once and plays in all seven tournaments.
    anna = Player.objects.get(ddv_number="D-100")
    assert anna.entries.count() == 7
    assert Player.objects.count() == 1 + 7 * (LINES - 1)
    assert Player.history.count() == Player.objects.count()


@pytest.mark.django_db
def test_a_confirm_that_fails_while_writing_writes_nothing(monkeypatch, tournament):
    """The players are in, the entries fail (here: the disk is full): nothing stays, no
    player, no team, no history, and the tournament's pages do not change."""
    preview = player_import.parse_player_file(tournament, "liste.csv", csv_file("a").read())
    version = Tournament.objects.get(pk=tournament.pk).version
    real = bulk.insert

    def insert(model, rows, same=None):
        if model is Entry:
            raise OSError("database or disk is full")
        real(model, rows, same)

    monkeypatch.setattr(bulk, "insert", insert)
    with pytest.raises(OSError):
        player_import.apply_import(tournament, preview.rows)
    assert not Player.objects.exists() and not Player.history.exists()
    assert not tournament.entries.exists() and not tournament.teams.exists()
    assert not Entry.history.exists()
    assert Tournament.objects.get(pk=tournament.pk).version == version
