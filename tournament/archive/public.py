"""The public part of a document, whatever the document holds: the keys of the public profile
(build.py) and nothing else. The results service restores a club's publication through this
only, so that a private key a hall's file should never carry (a code, a token, an e-mail
address, a note, a user name, an unconsented player's name, club or number) is never stored
there, even when a file carries it."""

from __future__ import annotations

from typing import Any

from .build import PUBLIC_SETTINGS

TOP = ("format", "version", "created_at", "tournament", "teams", "players", "entries", "series")
TOURNAMENT = (*PUBLIC_SETTINGS, "uid", "date")
TEAM = ("ref", "name")
PLAYER = ("ref", "uid", "first_name", "last_name", "club", "ddv_number")
# The player of an entry without publication consent: the uid alone (build.py).
UNNAMED = ("ref", "uid")
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
    the keys build.py writes for it, and the players its entries refer to; the player of an
    entry whose player did not consent (``publish`` false) keeps its ``uid`` only (no name,
    no club, no number), whatever the document carries for it."""
    entries = _list(doc["entries"], ENTRY)
    named: set = set()
    unnamed: set[int] = set()
    for entry in entries:
        if not isinstance(entry, dict):
            continue
        ref = entry.get("player")
        if entry.get("publish"):
            named.add(ref)
        elif isinstance(ref, int) and not isinstance(ref, bool):
            unnamed.add(ref)
        else:
            entry["player"] = None  # nobody (an older hall sent no player at all)
    players = []
    for player in _list(doc["players"], PLAYER):
        ref = player.get("ref") if isinstance(player, dict) else None
        if ref in unnamed:
            players.append(_only(player, UNNAMED))
        elif ref in named:
            players.append(player)
    return {key: doc[key] for key in TOP if key in doc} | {
        "profile": "public",
        "tournament": _only(doc["tournament"], TOURNAMENT),
        "teams": _list(doc["teams"], TEAM),
        "players": players,
        "entries": entries,
        "rounds": [_round(r) for r in doc["rounds"]],
    }
