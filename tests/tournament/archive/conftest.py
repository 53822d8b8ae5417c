"""A tournament full of what must never leave the hall, beside what the public pages show."""

import datetime
from dataclasses import dataclass, field

import pytest
from django.utils import timezone

from tests import factories
from tournament.models import (
    DrawLog,
    Entry,
    FeeStatus,
    Game,
    Penalty,
    Player,
    RefereeCall,
    Registration,
    Round,
    RoundStatus,
    Seat,
    SeatMail,
    Series,
    Sheet,
    SheetStatus,
    Table,
    Team,
    Tournament,
)


@dataclass
class Rich:
    tournament: Tournament
    # Strings that must appear in no public file.
    secrets: list[str] = field(default_factory=list)
    # The uids of the players without publication consent: the public file carries them
    # (one person's tournaments stay one on the service), no page shows them.
    hidden_uids: list[str] = field(default_factory=list)


def _game(table, number, values, facts=None):
    Game.objects.create(
        table=table,
        number=number,
        kind="normal",
        facts=facts,
        **{f"p{i}": v for i, v in enumerate(values, 1)},
    )


def forget(tournament):
    """The database as another laptop has it: without the tournament, its players, series."""
    players = list(Entry.objects.filter(tournament=tournament).values_list("player", flat=True))
    Series.objects.filter(tournaments=tournament).delete()
    Penalty.objects.filter(tournament=tournament).update(replaces=None)
    Penalty.objects.filter(tournament=tournament).delete()
    Seat.objects.filter(round__tournament=tournament).delete()
    tournament.delete()
    Player.objects.filter(pk__in=players).delete()


@pytest.fixture
def rich(db):
    referee = factories.referee(username="oberschiedsrichter")
    cashier = factories.director(username="kassenwart")
    director = factories.director(username="turnierleiterin")
    t = factories.TournamentFactory(
        name="Herbstturnier",
        slug="herbst",
        is_public=True,
        planned_rounds=3,
        venue="Bürgerhaus",
        registration_open=True,
        registration_consent="Einwilligungstext-Vertraulich",
        directors=[director],
    )
    t.referees.add(referee)
    team = Team.objects.create(tournament=t, name="Die Kreuzbuben")
    secrets = [
        "oberschiedsrichter",
        "kassenwart",
        "turnierleiterin",
        "Einwilligungstext-Vertraulich",
        t.projector_token,
    ]
    entries = []
    hidden_uids: list[str] = []
    for number in range(1, 9):
        published = number % 2 == 1
        player = factories.PlayerFactory(
            first_name=f"Vorname{number}" if published else f"Heimlich{number}",
            last_name=f"Offen{number}" if published else f"Verborgen{number}",
            club="DSC Testhausen" if published else "Geheimclub",
            ddv_number=f"DDV-OFFEN-{number}" if published else f"DDV-GEHEIM-{number}",
        )
        entry = factories.EntryFactory(
            tournament=t,
            player=player,
            start_number=number,
            publish=published,
            team=team if number <= 2 else None,
            fee=FeeStatus.PAID,
            fee_changed_by=cashier,
            fee_changed_at=timezone.now(),
            checked_in=True,
            confirm_code=f"{70000 + number * 1111}",
        )
        entries.append(entry)
        secrets += [f'"{entry.confirm_code}"', entry.token]
        if not published:
            secrets += [player.first_name, player.last_name, player.ddv_number]
            hidden_uids.append(str(player.uid))
    secrets.append("Geheimclub")
    start = timezone.now() - datetime.timedelta(hours=3)
    round1 = Round.objects.create(
        tournament=t,
        number=1,
        status=RoundStatus.CLOSED,
        started_at=start,
        closed_at=start + datetime.timedelta(hours=1),
    )
    round2 = Round.objects.create(
        tournament=t,
        number=2,
        status=RoundStatus.RELEASED,
        started_at=start + datetime.timedelta(hours=2),
    )
    round3 = Round.objects.create(tournament=t, number=3, status=RoundStatus.DRAWN)
    tables = {}
    for round_ in (round1, round2, round3):
        for number in (1, 2):
            table = Table.objects.create(round=round_, number=number, size=4)
            tables[round_.number, number] = table
            secrets.append(table.token)
            seated = entries[(number - 1) * 4 : number * 4]
            if round_.number == 2:
                seated = entries[number - 1 :: 2]
            for position, entry in enumerate(seated, start=1):
                Seat.objects.create(round=round_, table=table, entry=entry, position=position)
    for (r, _number), table in tables.items():
        if r == 3:
            continue
        _game(table, 1, [3, -1, -1, -1], facts={"re": [1], "winner": "re", "eyes": 121})
        _game(table, 2, [-2, -2, 2, 2])
    Sheet.objects.filter(table__round=round1).update(
        status=SheetStatus.CONFIRMED,
        submitted_by="Listenführer-Ulrich",
        confirmed_by="Bestätiger-Quirin",
        submitted_at=start,
        confirmed_at=start,
        extra_minutes=5,
        extra_reason="Grund-der-Verlängerung",
    )
    Sheet.objects.filter(table=tables[2, 1]).update(
        status=SheetStatus.CONFIRMED, confirmed_by="Bestätiger-Quirin"
    )
    secrets += ["Listenführer-Ulrich", "Bestätiger-Quirin", "Grund-der-Verlängerung"]
    signed = {"referee": referee, "entered_by": referee, "signed_at": start}
    Penalty.objects.create(
        table=tables[1, 1],
        game_number=2,
        offender=entries[0],
        offender_position=1,
        category="geringfuegig",
        p1=-3,
        p2=1,
        p3=1,
        p4=1,
        reason="Begründung-Strafe-Vertraulich",
        **signed,
    )
    Penalty.objects.create(
        table=tables[1, 2],
        game_number=1,
        offender=entries[5],
        offender_position=2,
        category="schwerwiegend",
        p1=2,
        p2=-6,
        p3=2,
        p4=2,
        reason="Widerrufene-Strafe-Grund",
        revoke_reason="Widerrufs-Begründung",
        revoked_by=referee,
        revoked_at=start,
        **signed,
    )
    Penalty.objects.create(
        table=tables[2, 1],
        game_number=1,
        offender=entries[2],
        offender_position=2,
        category="geringfuegig",
        p1=1,
        p2=-3,
        p3=1,
        p4=1,
        reason="Entwurf-nicht-unterschrieben",
        entered_by=referee,
    )
    secrets += ["Begründung-Strafe-Vertraulich", "Widerrufene-Strafe-Grund"]
    secrets += ["Widerrufs-Begründung", "Entwurf-nicht-unterschrieben", "schwerwiegend"]
    RefereeCall.objects.create(table=tables[2, 2], game_number=2, note="Ruf-an-den-Tisch")
    DrawLog.objects.create(
        round=round3,
        action="draw",
        seed=4711,
        user=director,
        note="Auslosungs-Notiz",
        plan=[[[e.pk for e in entries[:4]], [e.pk for e in entries[4:]]]],
    )
    SeatMail.objects.create(round=round2, entry=entries[0], table_number=1, position=1)
    registration = Registration.objects.create(
        tournament=t,
        first_name="Anmelderin",
        last_name="Unbestätigt",
        email="heimlich@example.org",
        position=1,
        entry=entries[1],
    )
    secrets += ["Ruf-an-den-Tisch", "Auslosungs-Notiz", "heimlich@example.org"]
    secrets += ["Anmelderin", "Unbestätigt", registration.token]
    factories.settle(t)
    public_series = factories.make_series([t], is_public=True)
    hidden = Series.objects.create(name="Geheimserie", slug="geheim")
    hidden.tournaments.add(t)
    secrets.append("Geheimserie")
    assert Entry.objects.filter(tournament=t).count() == 8
    assert public_series.is_public
    return Rich(Tournament.objects.get(pk=t.pk), secrets, hidden_uids)
