"""What a paired tablet and the devices page read: the table a device plays at now, what it
waits for between rounds, the devices of a tournament (the pairing itself is a verb,
tournament/domain/devices.py)."""

from __future__ import annotations

from dataclasses import dataclass

from ..models import Round, RoundStatus, Table, TableDevice, Tournament


def current_table(device: TableDevice) -> Table | None:
    """The table with the device's number in the round being played, if there is one (one
    round is released at a time: tournament/domain/draw.py, release_blocker)."""
    return (
        Table.objects.filter(
            round__tournament_id=device.tournament_id,
            round__status=RoundStatus.RELEASED,
            number=device.table_number,
        )
        .select_related("round")
        .first()
    )


@dataclass(frozen=True)
class Waiting:
    """What a paired device shows between rounds."""

    released: Round | None  # the round being played (then without this table number)
    last_closed: Round | None
    rounds_left: bool  # more rounds are planned or drawn


def waiting(device: TableDevice) -> Waiting:
    rounds = list(Round.objects.filter(tournament_id=device.tournament_id).order_by("number"))
    released = next((r for r in rounds if r.status == RoundStatus.RELEASED), None)
    closed = [r for r in rounds if r.status == RoundStatus.CLOSED]
    left = len(rounds) < device.tournament.planned_rounds or any(not r.started for r in rounds)
    return Waiting(released, closed[-1] if closed else None, left)


def devices_of(tournament: Tournament) -> list[TableDevice]:
    """The tournament's pairings for its director's page: by table, newest first."""
    return list(
        TableDevice.objects.filter(tournament=tournament)
        .select_related("created_by")
        .order_by("table_number", "-created_at")
    )
