"""Who a published player is on the service.

A club's laptops know a player by a uid; on the service the same person is one player across
clubs only where the DDV member number matches (``Player.ddv_number`` is unique), or where a
service administrator merged two players (the merge moves the ``PlayerOrigin`` rows along,
tournament/domain/players.py). Everything else stays apart per club: a club's player uid maps
to the service's player through ``PlayerOrigin(club, uid)``."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable

from ..models import Club, Player, PlayerOrigin


def _uid(value) -> uuid.UUID | None:
    try:
        return uuid.UUID(str(value))
    except (TypeError, ValueError, AttributeError):
        return None


def _text(data: dict, key: str, limit: int) -> str:
    value = data.get(key)
    return value.strip()[:limit] if isinstance(value, str) else ""


def player_finder(club: Club, players: Iterable[dict]) -> Callable[[dict], Player | None]:
    """The ``find_player`` for restoring a publication of ``club`` whose players are
    ``players`` (the doc's player dicts): known uids are read in one query up front. It returns
    the service's player for a player dict, creating it (and its origin) when the club's
    player is new here; None for a dict without a name (restore makes an anonymous player)."""
    uids = {u for u in (_uid(p.get("uid")) for p in players if isinstance(p, dict)) if u}
    known = {
        origin.uid: origin
        for origin in PlayerOrigin.objects.filter(club=club, uid__in=uids).select_related("player")
    }

    def find(data: dict) -> Player | None:
        if not isinstance(data, dict):
            return None
        first = _text(data, "first_name", 100)
        last = _text(data, "last_name", 100)
        if not (first or last):
            return None
        uid = _uid(data.get("uid"))
        ddv = _text(data, "ddv_number", 20)
        origin = known.get(uid) if uid else None
        player = origin.player if origin else None
        by_number = Player.objects.filter(ddv_number=ddv).first() if ddv else None
        if by_number is not None and (player is None or player.pk != by_number.pk):
            # The federation's number names one person, whichever club publishes them.
            player = by_number
        elif player is not None:
            # The club's own spelling of its player: a corrected name reaches the service.
            changed = {"first_name": first, "last_name": last or first}
            changed["club"] = _text(data, "club", 150)
            if ddv and not player.ddv_number:
                changed["ddv_number"] = ddv
            if any(getattr(player, field) != value for field, value in changed.items()):
                for field, value in changed.items():
                    setattr(player, field, value)
                player.save()
        if player is None:
            player = Player.objects.create(
                first_name=first,
                last_name=last or first,
                club=_text(data, "club", 150),
                ddv_number=ddv,
            )
        if uid is not None:
            if origin is None:
                origin = PlayerOrigin(club=club, uid=uid, player=player)
                origin.save()
                known[uid] = origin
            elif origin.player_id != player.pk:
                origin.player = player
                origin.save(update_fields=["player"])
        return player

    return find


def forget_unplayed(player_ids: Iterable[int]) -> None:
    """Delete those of these players who no longer play in any tournament on the service (a
    publication replaced their entries: an anonymous player made for it, or a player whose
    name the hall no longer publishes). The service has no other use for a player."""
    Player.objects.filter(pk__in=list(player_ids), entries__isnull=True).delete()
