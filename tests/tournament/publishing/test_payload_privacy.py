"""Only public data leaves the hall: every payload the publisher sends, over a tournament that
holds everything private there is (e-mail addresses, confirmation codes, table, personal,
projector and device secrets, referee notes and calls, penalty and revocation reasons, who
entered and confirmed what, history, the names of players without publication consent),
contains none of it."""

import io
import zipfile

import pytest
from django.utils import timezone

from tests.factories import referee, released_table, settle
from tournament import archive
from tournament.models import (
    Game,
    Penalty,
    RefereeCall,
    Registration,
    RegistrationState,
    Round,
    RoundStatus,
    Sheet,
    TableDevice,
)
from tournament.publishing.publisher import Publisher

pytestmark = pytest.mark.django_db


def payload_text(body: bytes) -> str:
    """Everything in a payload as text: each file of the zip."""
    if not zipfile.is_zipfile(io.BytesIO(body)):
        return body.decode("utf-8")
    with zipfile.ZipFile(io.BytesIO(body)) as packed:
        return "\n".join(packed.read(name).decode("utf-8") for name in packed.namelist())


def scalars(value):
    """Every number and text in a JSON document, keys aside."""
    if isinstance(value, dict):
        for item in value.values():
            yield from scalars(item)
    elif isinstance(value, list):
        for item in value:
            yield from scalars(item)
    else:
        yield value


def test_no_payload_carries_anything_private(hall, published, clock, director_user):
    official = referee(username="schiri-hubertus")
    published.referees.add(official)
    table = released_table(published)
    entries = [seat.entry for seat in table.seats.order_by("position")]
    for number, entry in enumerate(entries):
        entry.publish = number < 3
        entry.confirm_code = f"{48213 + number * 1111}"
        # What the prize categories ask (issue 38): personal data that never leaves.
        entry.birth_year, entry.sex = 1937 + number, "f"
        entry.guest = entry.newcomer = True
        entry.save()
    hidden = entries[3].player
    hidden.first_name, hidden.last_name = "Verborgenia", "Geheimrath"
    hidden.ddv_number, hidden.club = "55501234", "Stiller Verein"
    hidden.save()
    Registration.objects.create(
        tournament=published,
        first_name="Rieke",
        last_name="Anmelderin",
        email="rieke.privat@example.org",
        consent="Einwilligung-Sondertext",
        state=RegistrationState.WAITING,
        position=1,
    )
    TableDevice.objects.create(
        tournament=published, table_number=1, label="Tablet-Geheimfach", created_by=director_user
    )
    RefereeCall.objects.create(table=table, game_number=1, note="Notiz-am-Tisch-geheim")
    Game.objects.create(table=table, number=1, kind="normal", p1=2, p2=-2, p3=2, p4=-2)
    Sheet.objects.filter(table=table).update(
        status="confirmed",
        submitted_by="Eingetragen-von-geheim",
        confirmed_by="Bestaetigt-von-geheim",
        confirmed_at=timezone.now(),
        extra_reason="Verlaengerung-geheim",
    )
    Penalty.objects.create(
        table=table,
        game_number=1,
        offender=entries[0],
        category="geringfuegig",
        p1=-2,
        p2=2,
        p3=0,
        p4=0,
        entered_by=official,
        referee=official,
        signed_at=timezone.now(),
        reason="Grund-der-Strafe-geheim",
    )
    Penalty.objects.create(
        table=table,
        game_number=1,
        offender=entries[1],
        category="verwarnung",
        referee=official,
        signed_at=timezone.now(),
        revoked_by=director_user,
        revoked_at=timezone.now(),
        reason="Zweiter-Grund-geheim",
        revoke_reason="Widerruf-geheim",
    )
    publisher = Publisher(clock=clock)
    publisher.run_once()
    Round.objects.filter(pk=table.round_id).update(status=RoundStatus.CLOSED, closed_at=clock.now)
    settle(published)
    clock.advance(10)
    publisher.run_once()

    payloads = [payload_text(body) for _uid, _sequence, body in hall.accepted]
    assert len(payloads) == 2
    published.refresh_from_db()
    secrets = [
        "rieke.privat@example.org",
        "Anmelderin",
        "Einwilligung-Sondertext",
        published.projector_token,
        table.token,
        "Tablet-Geheimfach",
        "Notiz-am-Tisch-geheim",
        "Eingetragen-von-geheim",
        "Bestaetigt-von-geheim",
        "Verlaengerung-geheim",
        "Grund-der-Strafe-geheim",
        "Zweiter-Grund-geheim",
        "Widerruf-geheim",
        "schiri-hubertus",
        director_user.username,
        "Verborgenia",
        "Geheimrath",
        "55501234",
        "Stiller Verein",
        "confirm_code",
        *[f'"{entry.confirm_code}"' for entry in entries],
        *[entry.token for entry in entries if entry.token],
        *[r.token for r in Registration.objects.all() if r.token],
    ]
    for text in payloads:
        assert [secret for secret in secrets if secret in text] == []
        # ... while the public data is there: the consenting players' names.
        assert "Spieler1" in text
    for _uid, _sequence, body in hall.accepted:
        # Of the player without consent only the uid travels (it links their tournaments
        # on the service): no name, club or DDV number (the secrets above).
        players = archive.unpack(body)["players"]
        [unnamed] = [p for p in players if p["uid"] == str(hidden.uid)]
        assert set(unnamed) == {"ref", "uid"}
        # Nor the entry attributes of the prize categories (issue 38), of anybody.
        doc = archive.unpack(body)
        attributes = {"birth_year", "sex", "guest", "newcomer"}
        assert all(not attributes & set(entry) for entry in doc["entries"])
        assert "prize_categories" not in doc
        # No value anywhere is one of the years of birth (a text search would also find
        # them inside a random uid).
        assert not {1937 + n for n in range(4)} & set(scalars(doc))


def test_a_hidden_round_sends_no_game_rows(hall, published, clock, director_user):
    """Hidden standings (issue 38): while the director hides the results from round 2 on,
    the payload carries round 2's table plan but none of its games or results; the
    publication after "Reveal the standings" carries them."""
    first = released_table(published, round_number=1)
    entries = [seat.entry for seat in first.seats.order_by("position")]
    Game.objects.create(table=first, number=1, kind="normal", p1=4, p2=-4, p3=4, p4=-4)
    second = Round.objects.create(
        tournament=published, number=2, status=RoundStatus.CLOSED, closed_at=clock.now
    )
    table = second.tables.create(number=1, size=4)
    for position, entry in enumerate(entries, start=1):
        table.seats.create(round=second, entry=entry, position=position)
    Game.objects.create(table=table, number=1, kind="normal", p1=613, p2=-613, p3=5, p4=-5)
    Round.objects.filter(number=1, tournament=published).update(
        status=RoundStatus.CLOSED, closed_at=clock.now
    )
    settle(published)
    published.hide_standings_from = 2
    published.save()
    publisher = Publisher(clock=clock)
    publisher.run_once()
    doc = archive.unpack(hall.accepted[-1][2])
    assert doc["tournament"]["hide_standings_from"] == 2
    rounds = {r["number"]: r for r in doc["rounds"]}
    assert rounds[1]["tables"][0]["games"] and rounds[1]["results"]
    assert rounds[2]["tables"][0]["games"] == [] and rounds[2]["results"] == []
    assert len(rounds[2]["tables"][0]["seats"]) == 4  # the table plan stays
    assert "613" not in payload_text(hall.accepted[-1][2])

    published.refresh_from_db()
    published.hide_standings_from = None  # what "Reveal the standings" does
    published.save()
    clock.advance(10)
    publisher.run_once()
    doc = archive.unpack(hall.accepted[-1][2])
    assert doc["tournament"]["hide_standings_from"] is None
    assert {r["number"]: r for r in doc["rounds"]}[2]["tables"][0]["games"]
