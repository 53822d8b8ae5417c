"""Who a published player is on the service.

A club's laptops know a player by a uid; on the service the same person is one player across
clubs only where the DDV member number and the name match (``Player.ddv_number`` is unique),
or where a service administrator merged two players (the merge moves the ``PlayerOrigin``
rows along, tournament/domain/players.py). Everything else stays apart per club: a club's
player uid maps to the service's player through ``PlayerOrigin(club, uid)`` — also the uid of
a player who did not consent to publication, which is all a publication carries of them."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable

from ..archive.restore import ANONYMOUS
from ..models import Club, Entry, Player, PlayerOrigin, names


def _uid(value) -> uuid.UUID | None:
    try:
        return uuid.UUID(str(value))
    except (TypeError, ValueError, AttributeError):
        return None


def _text(data: dict, key: str, limit: int) -> str:
    value = data.get(key)
    return value.strip()[:limit] if isinstance(value, str) else ""


def _shared(club: Club, player_ids: Iterable[int]) -> set[int]:
    """Those of these players whom records of another club (or of the service itself) point
    to: an origin of another club, an entry in a tournament that is not the club's."""
    ids = list(player_ids)
    origins = PlayerOrigin.objects.filter(player_id__in=ids).exclude(club=club)
    entries = Entry.objects.filter(player_id__in=ids).exclude(tournament__club=club)
    return set(origins.values_list("player_id", flat=True)) | set(
        entries.values_list("player_id", flat=True)
    )


def player_finder(club: Club, players: Iterable[dict]) -> Callable[[dict], Player | None]:
    """The ``find_player`` for restoring a publication of ``club`` whose players are
    ``players`` (the doc's player dicts): known uids are read in one query up front. It returns
    the service's player for a player dict, creating it (and its origin) when the club's
    player is new here; a player dict without a name (no publication consent: its uid alone)
    is the player the club's uid leads to, unchanged, else a new nameless one the uid leads to
    from now on (never another club's player by number).

    The DDV number joins a club's player to a player of another club only when the names
    match too (``Player.name_key``, the hall's rule): a number alone names nobody, or any
    club could put its results under another club's player's name by typing their number.
    A player another club's records point to keeps its name and club whatever one club
    publishes; a club's own player follows the club's latest publication."""
    uids = {u for u in (_uid(p.get("uid")) for p in players if isinstance(p, dict)) if u}
    known = {
        origin.uid: origin
        for origin in PlayerOrigin.objects.filter(club=club, uid__in=uids).select_related("player")
    }
    shared = _shared(club, {origin.player_id for origin in known.values()})

    def unnamed(uid: uuid.UUID | None) -> Player:
        """The club's player ``uid`` of an entry without publication consent: the player the
        club's uid leads to, as it is (a nameless publication renames nobody), else a new
        nameless one the uid leads to from now on, so that one person's tournaments stay one
        player (a series counts them once) and a later publication with consent names them."""
        origin = known.get(uid) if uid else None
        if origin is not None:
            return origin.player
        player = Player.objects.create(first_name="", last_name=ANONYMOUS)
        if uid is not None:
            known[uid] = PlayerOrigin.objects.create(club=club, uid=uid, player=player)
        return player

    def find(data: dict) -> Player | None:
        if not isinstance(data, dict):
            return None
        first = _text(data, "first_name", 100)
        last = _text(data, "last_name", 100) or first
        uid = _uid(data.get("uid"))
        if not last:
            return unnamed(uid)
        ddv = _text(data, "ddv_number", 20)
        key = names.name_key(first, last)
        origin = known.get(uid) if uid else None
        player = origin.player if origin else None
        holder = Player.objects.filter(ddv_number=ddv).first() if ddv else None
        if holder is not None and player is not None and holder.pk == player.pk:
            holder = None
        if holder is not None and holder.name_key == key:
            # The federation's number and the name: one person, whichever club publishes.
            player = holder
            shared.add(holder.pk)
        elif player is not None and player.pk not in shared:
            # The club's own spelling of its own player: a corrected name reaches the service.
            changed = {"first_name": first, "last_name": last, "club": _text(data, "club", 150)}
            if ddv and not player.ddv_number and holder is None:
                changed["ddv_number"] = ddv
            if any(getattr(player, field) != value for field, value in changed.items()):
                for field, value in changed.items():
                    setattr(player, field, value)
                player.save()
        if player is None:
            player = Player.objects.create(
                first_name=first,
                last_name=last,
                club=_text(data, "club", 150),
                ddv_number=ddv if holder is None else "",
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
