"""Who a player is: the player database looked up by name key, club and DDV member number,
for the desk, the import and the online registration (a read: the verbs then link or create)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Q, QuerySet

from ..models import EntryStatus, Player, Tournament
from ..models.names import club_key, name_key
from ..permissions import managed_tournaments


@dataclass(frozen=True)
class PlayerData:
    first_name: str
    last_name: str
    club: str = ""
    ddv_number: str = ""

    @property
    def name_key(self) -> str:
        return name_key(self.first_name, self.last_name)


class KnownPlayers:
    """The players of some tournaments by their name key (``Player.name_key``, see
    :func:`~tournament.models.names.name_key`), read once on first use: one query for a whole
    import instead of one per line. With ``keys``, only the players of those name keys are
    read, through the field's index (a single registration asks for one).

    A player of an online registration that no director accepted (``Player.unverified``) is
    known only in ``home``, its own tournament, and only while its entry is not withdrawn:
    there it is the person of that name (nobody is entered twice), anywhere else it is
    nobody (issue 34: what a stranger typed binds nothing outside its tournament)."""

    def __init__(
        self,
        tournaments: QuerySet[Tournament],
        home: Tournament | None = None,
        keys: Iterable[str] | None = None,
    ):
        self._tournaments = tournaments
        self._home = home
        self._keys = None if keys is None else sorted(set(keys))
        self._by_key: dict[str, list[Player]] | None = None
        self._unverified: dict[str, list[Player]] = defaultdict(list)

    def _read(self) -> dict[str, list[Player]]:
        if self._by_key is None:
            self._by_key = defaultdict(list)
            named = Player.objects.all()
            if self._keys is not None:
                named = named.filter(name_key__in=self._keys)
            players = named.filter(
                entries__tournament__in=self._tournaments, unverified=False
            ).distinct()
            for player in players:
                self._by_key[player.name_key].append(player)
            if self._home is not None:
                registered = (
                    named.filter(unverified=True, entries__tournament=self._home)
                    .exclude(entries__status=EntryStatus.WITHDRAWN)
                    .distinct()
                )
                for player in registered:
                    self._unverified[player.name_key].append(player)
        return self._by_key

    def named(self, key: str) -> list[Player]:
        return self._read().get(key, [])

    def registered_online(self, key: str) -> list[Player]:
        """The unverified players of ``home`` with this name."""
        self._read()
        return self._unverified.get(key, [])

    def add(self, player: Player) -> None:
        if self._by_key is not None:
            self._by_key[player.name_key].append(player)


def known_tournaments(director, tournament: Tournament) -> QuerySet[Tournament]:
    """The tournaments whose players ``director`` may be linked to by name: the ones they run
    and ``tournament`` itself. Without a director (a script), only ``tournament``."""
    this = Q(pk=tournament.pk)
    if director is None:
        return Tournament.objects.filter(this)
    return Tournament.objects.filter(this | Q(pk__in=managed_tournaments(director).values("pk")))


def directors_tournaments(tournament: Tournament) -> QuerySet[Tournament]:
    """``tournament`` and the other tournaments of its directors: whose players the waiting
    list moving up in bulk may be linked to."""
    directors = tournament.directors.all()
    return Tournament.objects.filter(Q(pk=tournament.pk) | Q(directors__in=directors)).distinct()


def find_player(
    data: PlayerData,
    known: QuerySet[Tournament] | KnownPlayers,
    holders: dict[str, Player] | None = None,
) -> Player | None:
    """The player in the database that ``data`` describes, or None for a new person.

    The player database is shared by all tournaments, and a linked player brings what is stored
    about them (the club) into the entry list. So a row is linked only to a player the director
    already knows: one with an entry in ``known`` (see :func:`known_tournaments`), or one whose
    DDV member number and name the row gives. Within ``known`` the name must match (see
    :func:`~tournament.models.names.name_key`: case, accents and how umlauts were typed do not
    matter) and the club too, unless one of the two has no club. Anybody else becomes a new
    player (duplicates can be merged later). A member number held by somebody with another name
    is returned all the same: :func:`ddv_number_conflict` refuses it. ``holders`` (member number
    -> player, read once for many rows) saves the query per row.
    """
    if not isinstance(known, KnownPlayers):
        known = KnownPlayers(known, keys=[data.name_key])
    club = club_key(data.club)
    # Somebody registered online here under this name comes first: the same person is not
    # entered twice, whatever member number the line gives (the director accepts it on the
    # registrations page).
    online = _pick(known.registered_online(data.name_key), club)
    if online is not None:
        return online
    if data.ddv_number:
        if holders is not None:
            player = holders.get(data.ddv_number)
        else:
            player = Player.objects.filter(ddv_number=data.ddv_number).first()
        if player is not None:
            return player
    candidates = [p for p in known.named(data.name_key) if not p.ddv_number or not data.ddv_number]
    return _pick(candidates, club)


def _pick(candidates: list[Player], club: str) -> Player | None:
    """The one candidate of the same club (``club``: its :func:`club_key`), or the only one
    when one of the two has no club."""
    same_club = [p for p in candidates if p.club_key == club]
    if len(same_club) == 1:
        return same_club[0]
    if not same_club and len(candidates) == 1 and (not club or not candidates[0].club):
        return candidates[0]
    return None


def ddv_number_conflict(data: PlayerData, player: Player | None) -> bool:
    """True when the member number belongs to somebody with another name."""
    return bool(
        data.ddv_number
        and player is not None
        and player.ddv_number == data.ddv_number
        and player.name_key != data.name_key
    )
