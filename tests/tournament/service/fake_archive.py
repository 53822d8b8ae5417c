"""STAND-IN for part A's tournament.archive (build, pack, unpack, digest, restore, ArchiveError)
while it is built on another branch: just enough of spec37.md's interface for the service's
tests (header, players, entries, rounds with tables, seats and games, series). conftest.py
puts it in place only when tournament.archive lacks the real functions, so after the merge
these tests run against the real archive unchanged.
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from datetime import UTC, date, datetime

from django.db import transaction

from tests.factories import settle
from tournament.base.versions import mark_changed
from tournament.errors import DomainError
from tournament.models import Entry, Game, Player, Round, Seat, Table, Tournament

FORMAT, FORMAT_VERSION = "kreuzdame-tournament", 1


class ArchiveError(DomainError):
    pass


def build(tournament, *, profile="full", results_visible=None, now=None) -> dict:
    header = {
        "uid": str(tournament.uid),
        "slug": tournament.slug,
        "name": tournament.name,
        "date": tournament.date.isoformat(),
        "is_public": tournament.is_public,
        "planned_rounds": tournament.planned_rounds,
    }
    doc = {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "profile": profile,
        "created_at": (now or datetime.now(UTC)).isoformat(),
        "tournament": header,
        "players": [],
        "entries": [],
        "rounds": [],
        "series": [],
    }
    if not tournament.is_public:
        return doc
    for entry in tournament.entries.select_related("player").order_by("start_number"):
        ref = None
        if entry.publish:
            p = entry.player
            ref = len(doc["players"])
            doc["players"].append(
                {
                    "uid": str(p.uid),
                    "first_name": p.first_name,
                    "last_name": p.last_name,
                    "club": p.club,
                    "ddv_number": p.ddv_number,
                }
            )
        doc["entries"].append(
            {"start_number": entry.start_number, "publish": entry.publish, "player": ref}
        )
    for round_ in tournament.rounds.order_by("number"):
        tables = []
        for table in round_.tables.order_by("number"):
            seats = [s.entry.start_number for s in table.seats.order_by("position")]
            games = [
                [g.number, g.kind, g.p1, g.p2, g.p3, g.p4, g.p5]
                for g in Game.objects.filter(table=table).order_by("number")
            ]
            tables.append({"number": table.number, "size": table.size, "seats": seats,
                           "games": games})  # fmt: skip
        doc["rounds"].append({"number": round_.number, "status": round_.status, "tables": tables})
    for series in tournament.series.filter(is_public=True):
        doc["series"].append(
            {
                "uid": str(series.uid),
                "slug": series.slug,
                "name": series.name,
                "description": series.description,
                "method": series.method,
                "min_rounds": series.min_rounds,
                "tournaments": [str(t.uid) for t in series.tournaments.filter(is_public=True)],
            }
        )
    return doc


def pack(doc: dict) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        info = zipfile.ZipInfo("tournament.json", date_time=(2020, 1, 1, 0, 0, 0))
        archive.writestr(info, json.dumps(doc, sort_keys=True))
    return out.getvalue()


def unpack(data: bytes) -> dict:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            doc = json.loads(archive.read("tournament.json"))
    except (zipfile.BadZipFile, KeyError, ValueError):
        raise ArchiveError("Das ist keine Turnierdatei.") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ArchiveError("Das ist keine Turnierdatei.")
    return doc


def digest(doc: dict) -> str:
    rest = {k: v for k, v in doc.items() if k != "created_at"}
    return hashlib.sha256(json.dumps(rest, sort_keys=True).encode()).hexdigest()


def restore(doc, *, target=None, find_player=None, slug=None, with_series=True) -> Tournament:
    header = doc["tournament"]
    with transaction.atomic():
        fields = {
            "name": header["name"],
            "date": date.fromisoformat(header["date"]),
            "is_public": header["is_public"],
            "planned_rounds": header.get("planned_rounds", 1),
        }
        if "registration_open" in header:  # a header field the real archive might carry
            fields["registration_open"] = header["registration_open"]
        if target is None:
            if Tournament.objects.filter(uid=header["uid"]).exists():
                raise ArchiveError("Dieses Turnier gibt es hier schon.")
            t = Tournament.objects.create(uid=header["uid"], slug=slug or header["slug"], **fields)
        else:
            t = target
            Round.objects.filter(tournament=t).delete()
            Entry.objects.filter(tournament=t).delete()
            Tournament.objects.filter(pk=t.pk).update(**fields)
        entries = {}
        for data in doc["entries"]:
            pdata = doc["players"][data["player"]] if data["player"] is not None else None
            player = find_player(pdata) if (pdata and find_player) else None
            if player is None:
                player = Player.objects.create(first_name="", last_name="anonym")
            entries[data["start_number"]] = Entry.objects.create(
                tournament=t,
                player=player,
                start_number=data["start_number"],
                publish=data["publish"],
            )
        for data in doc["rounds"]:
            round_ = Round.objects.create(tournament=t, number=data["number"],
                                          status=data["status"])  # fmt: skip
            for tdata in data["tables"]:
                table = Table.objects.create(round=round_, number=tdata["number"],
                                             size=tdata["size"])  # fmt: skip
                for position, number in enumerate(tdata["seats"], start=1):
                    Seat.objects.create(round=round_, table=table, entry=entries[number],
                                        position=position)  # fmt: skip
                for number, kind, *points in tdata["games"]:
                    Game.objects.create(table=table, number=number, kind=kind, p1=points[0],
                                        p2=points[1], p3=points[2], p4=points[3],
                                        p5=points[4])  # fmt: skip
        t.refresh_from_db()
        settle(t)
        mark_changed(t, results=True)
    return t
