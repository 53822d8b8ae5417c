"""The public part of a document, whatever the document holds: the keys of the public profile
(build.py) and nothing else. The results service restores a club's publication through this
only, so that a private key a hall's file should never carry (a code, a token, an e-mail
address, a note, a user name, an unconsented name) is never stored there, even when a file
carries it."""

from __future__ import annotations

from typing import Any

from .build import PUBLIC_SETTINGS

TOP = ("format", "version", "created_at", "tournament", "teams", "players", "entries", "series")
TOURNAMENT = (*PUBLIC_SETTINGS, "uid", "date")
TEAM = ("ref", "name")
PLAYER = ("ref", "uid", "first_name", "last_name", "club", "ddv_number")
ENTRY = ("start_number", "player", "team", "status", "publish")
ROUND = ("number", "status", "started_at", "closed_at", "results")
TABLE = ("number", "size", "seats", "sheet", "games")
SHEET = ("status", "extra_minutes", "time_limit_from", "struck_games")
PENALTY = ("number", "game_number", "offender", "offender_position", "points")


def _only(item: Any, keys: tuple[str, ...]) -> Any:
    """``item``'s ``keys`` (those it has); anything but a dict as it is (restore refuses it)."""
    if not isinstance(item, dict):
        return item
    return {key: item[key] for key in keys if key in item}


def _list(value: Any, keys: tuple[str, ...]) -> Any:
    return [_only(item, keys) for item in value] if isinstance(value, list) else value


def _table(table: Any) -> Any:
    if not isinstance(table, dict):
        return table
    out = _only(table, TABLE)
    if "sheet" in out:
        out["sheet"] = _only(out["sheet"], SHEET)
    out["penalties"] = _list(table.get("penalties", []), PENALTY)
    return out


def _round(round_: Any) -> Any:
    if not isinstance(round_, dict):
        return round_
    out = _only(round_, ROUND)
    tables = round_.get("tables", [])
    out["tables"] = [_table(t) for t in tables] if isinstance(tables, list) else tables
    return out


def public_part(doc: dict) -> dict:
    """``doc`` (checked by ``check_shape``) cut to the public profile: its profile "public",
    the keys build.py writes for it, an entry whose player did not consent (``publish``
    false) without its player, and the players only published entries name."""
    entries = _list(doc["entries"], ENTRY)
    named = set()
    for entry in entries:
        if not entry.get("publish"):
            entry["player"] = None
        elif isinstance(entry.get("player"), int):
            named.add(entry["player"])
    players = [p for p in _list(doc["players"], PLAYER) if p.get("ref") in named]
    return {key: doc[key] for key in TOP if key in doc} | {
        "profile": "public",
        "tournament": _only(doc["tournament"], TOURNAMENT),
        "teams": _list(doc["teams"], TEAM),
        "players": players,
        "entries": entries,
        "rounds": [_round(r) for r in doc["rounds"]],
    }
