"""Statistics of played games: per player and for a whole event, from plain game records.

A Spielliste holds, per game, its kind, the soloist and the points of each position (TSR
8.3); who was Re in a normal game, the announcements and the Absagen are not written on it.
So most figures here follow from the points: a game's winners are the players with the
most points of the game (TSR 7.2: each winner gets +v, each loser -v; with plus points the
winners v and the losers 0), its value v is the winners' points of a normal game and a
third of the soloist's of a solo (TSR 10.1.1: the soloist scores three times). In a solo the
soloist is Re and the three others are Kontra (TSR 7.2), so a solo is the one game whose
parties are known from the points alone.

A game taken from the Spielwert-Rechner carries its facts (:class:`~scoring.game.GameFacts`:
who was Re, the announcements, the Absagen). Over those games, and only those, the parties
of normal games, the announcements and the Absagen are counted, with the winner by TSR 7.1
(:func:`scoring.game.winner`); every such figure says over how many games it is counted
(``known``).

Every figure keeps the games it came from (:class:`GameRef`: tournament, round, table, game
number), so that a page can list them. Figures of different rule profiles are never added
up: :func:`compute` returns one :class:`Statistics` per profile key of the records.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field
from functools import cached_property

from .game import ABSAGE_LEVELS, KONTRA, PARTIES, RE, GameFacts, winner
from .kinds import Kind

Player = Hashable  # whatever the caller names a player by (an id)


@dataclass(frozen=True, order=True)
class GameRef:
    """Where a game stands: the tournament (the caller's key), round, table and game number.
    A penalty row is referred to by the game it was given in."""

    tournament: int
    round: int
    table: int
    game: int


@dataclass(frozen=True)
class GameRecord:
    """One game row as played: ``players[i]`` sat at position ``i + 1`` and scored
    ``points[i]``; ``sitter`` is the position that sat out (the dealer at a 5-table, TSR
    3.3.1), None at a 4-table. ``profile``: the rule profile the game was played under."""

    ref: GameRef
    profile: Hashable
    kind: Kind
    soloist: int | None
    players: tuple[Player | None, ...]
    points: tuple[int, ...]
    sitter: int | None = None
    facts: GameFacts | None = None  # when known (the caller checked they give the points)

    # active, value and winners are asked for many times per game (every player, partner and
    # opponent): worked out once (cached_property writes past the frozen dataclass).

    @cached_property
    def active(self) -> list[int]:
        """The positions that played the game (everybody but the sitter)."""
        return [p for p in range(1, len(self.points) + 1) if p != self.sitter]

    def points_of(self, position: int) -> int:
        return self.points[position - 1]

    @cached_property
    def value(self) -> int:
        """The game value v: a normal game's winners score v; a solo's soloist scores 3v
        when won, and with plus-minus -3v when lost (TSR 7.2, 10.1.1); with plus points a
        lost solo gives each opponent v."""
        best = max((self.points_of(p) for p in self.active), default=0)
        if self.kind.is_solo and self.soloist is not None and self.points_of(self.soloist):
            return abs(self.points_of(self.soloist)) // 3
        return max(best, 0)

    @cached_property
    def winners(self) -> frozenset[int]:
        """The positions that won: the most points of the game. None won when all scored
        the same (a game of value 0)."""
        scores = [self.points_of(p) for p in self.active]
        if not scores or max(scores) == min(scores):
            return frozenset()
        return frozenset(p for p in self.active if self.points_of(p) == max(scores))

    def side(self, position: int) -> frozenset[int]:
        """The party of ``position``: the soloist alone or the others of a solo; in a
        normal game the winners or the losers (without a winner: unknown, only itself)."""
        winners = self.winners
        if self.kind.is_solo and self.soloist is not None:
            if position == self.soloist:
                return frozenset({position})
            return frozenset(p for p in self.active if p != self.soloist)
        if not winners:
            return frozenset({position})
        if position in winners:
            return winners
        return frozenset(p for p in self.active if p not in winners)


@dataclass(frozen=True)
class PenaltyRecord:
    """Penalty points a referee gave ``player`` (TSR 9), counted at ``ref``'s game."""

    ref: GameRef
    profile: Hashable
    player: Player
    points: int


@dataclass
class Record:
    """Games won, lost and undecided (value 0): each figure lists its games."""

    won: list[GameRef] = field(default_factory=list)
    lost: list[GameRef] = field(default_factory=list)
    even: list[GameRef] = field(default_factory=list)

    def add(self, ref: GameRef, won: bool | None) -> None:
        (self.even if won is None else self.won if won else self.lost).append(ref)

    @property
    def games(self) -> list[GameRef]:
        return sorted(self.won + self.lost + self.even)

    @property
    def played(self) -> int:
        return len(self.won) + len(self.lost) + len(self.even)

    @property
    def rate(self) -> float | None:
        """Won games per decided game, 0..1; None before any."""
        decided = len(self.won) + len(self.lost)
        return len(self.won) / decided if decided else None


@dataclass(frozen=True)
class Score:
    """Points in one game (or one round at one table) and where."""

    points: int
    ref: GameRef


SOLO_KINDS = tuple(kind for kind in Kind if kind.is_solo)


def _by_party() -> dict[str, Record]:
    return {party: Record() for party in PARTIES}


def _by_level() -> dict[int, Record]:
    return {level: Record() for level in ABSAGE_LEVELS}


@dataclass
class PlayerStats:
    """One player's figures under one rule profile."""

    player: Player
    all: Record = field(default_factory=Record)  # every game played
    normal: Record = field(default_factory=Record)  # normal games (Hochzeit with partner too)
    solos: dict[Kind, Record] = field(default_factory=lambda: {k: Record() for k in SOLO_KINDS})
    against_solo: Record = field(default_factory=Record)  # Kontra against a soloist
    sat_out: list[GameRef] = field(default_factory=list)  # as the sitter of a 5-table
    penalties: list[Score] = field(default_factory=list)
    points: int = 0  # game points, without penalties
    values: int = 0  # the sum of the values of the games played
    best: Score | None = None
    worst: Score | None = None
    partners: dict[Player, Record] = field(default_factory=lambda: defaultdict(Record))
    opponents: dict[Player, Record] = field(default_factory=lambda: defaultdict(Record))
    # Over the games with known facts only (``known``): the party in normal games, won or
    # lost by it; the games in which the player's party announced "Re"/"Kontra"; its highest
    # Absage (keine 90 .. schwarz = 0), each won or lost by the party that made it.
    known: list[GameRef] = field(default_factory=list)
    parties: dict[str, Record] = field(default_factory=_by_party)
    announced: dict[str, Record] = field(default_factory=_by_party)
    absagen: dict[int, Record] = field(default_factory=_by_level)

    @property
    def games(self) -> int:
        return self.all.played

    @property
    def as_re(self) -> Record:
        return self.parties[RE]

    @property
    def as_kontra(self) -> Record:
        return self.parties[KONTRA]

    @property
    def absage(self) -> Record:
        """Every game in which the player's party made an Absage."""
        return _merged(self.absagen.values())

    @property
    def average_value(self) -> float | None:
        return self.values / self.games if self.games else None

    @property
    def solo(self) -> Record:
        """Every solo played as the soloist (Re), whatever its kind."""
        return _merged(self.solos.values())

    @property
    def pflichtsolo(self) -> Record:
        """The Pflichtsoli played, vorgeführte included (TSR 4.2)."""
        return _merged([self.solos[Kind.PFLICHTSOLO], self.solos[Kind.VORGEFUEHRT]])

    @property
    def vorgefuehrt(self) -> Record:
        """The Pflichtsoli the player had to play vorgeführt (TSR 4.2.3)."""
        return self.solos[Kind.VORGEFUEHRT]

    @property
    def penalty_points(self) -> int:
        return sum(score.points for score in self.penalties)


def _merged(records: Iterable[Record]) -> Record:
    merged = Record()
    for record in records:
        merged.won += record.won
        merged.lost += record.lost
        merged.even += record.even
    for games in (merged.won, merged.lost, merged.even):
        games.sort()
    return merged


@dataclass(frozen=True)
class BigGame:
    """A game of the event with its value, for the list of the biggest."""

    value: int
    record: GameRecord


@dataclass(frozen=True)
class RoundScore:
    """A player's game points in one round (at one table)."""

    player: Player
    points: int
    ref: GameRef  # game 0: the table as a whole


@dataclass
class Statistics:
    """Every figure of one rule profile: the event's and each player's."""

    profile: Hashable
    players: dict[Player, PlayerStats] = field(default_factory=dict)
    games: list[GameRecord] = field(default_factory=list)
    kinds: dict[Kind, Record] = field(default_factory=lambda: {k: Record() for k in SOLO_KINDS})
    normal: list[GameRef] = field(default_factory=list)
    sat_out: list[GameRef] = field(default_factory=list)
    penalties: list[PenaltyRecord] = field(default_factory=list)
    rounds: list[RoundScore] = field(default_factory=list)
    # Over the games with known facts (``known``), as in PlayerStats: normal games won by Re
    # (won), by Kontra (lost) or by neither (even); per party the games it announced in, and
    # per level the Absagen made, each won or lost by the party that announced.
    known: list[GameRef] = field(default_factory=list)
    re_games: Record = field(default_factory=Record)
    announced: dict[str, Record] = field(default_factory=_by_party)
    absagen: dict[int, Record] = field(default_factory=_by_level)

    @property
    def average_value(self) -> float | None:
        return sum(g.value for g in self.games) / len(self.games) if self.games else None

    @property
    def absage(self) -> Record:
        return _merged(self.absagen.values())

    @property
    def solos(self) -> Record:
        """Every solo of the event, won or lost by its soloist."""
        return _merged(self.kinds.values())

    def biggest(self, count: int = 3) -> list[BigGame]:
        """The games of the highest value, the earliest first among equal ones."""
        ordered = sorted(self.games, key=lambda g: (-g.value, g.ref))
        return [BigGame(g.value, g) for g in ordered[:count] if g.value > 0]

    def most_solos(self) -> tuple[int, list[PlayerStats]]:
        """The most solos one player played, and everybody who played that many."""
        most = max((s.solo.played for s in self.players.values()), default=0)
        if not most:
            return 0, []
        return most, [s for s in self.players.values() if s.solo.played == most]

    def highest_rounds(self, count: int = 3) -> list[RoundScore]:
        """The best round scores (a player's game points at one table)."""
        ordered = sorted(self.rounds, key=lambda r: (-r.points, r.ref, str(r.player)))
        return ordered[:count]


def _player(stats: Statistics, player: Player) -> PlayerStats:
    found = stats.players.get(player)
    if found is None:
        found = stats.players[player] = PlayerStats(player)
    return found


def _add_game(stats: Statistics, game: GameRecord) -> None:
    stats.games.append(game)
    winners, value, ref = game.winners, game.value, game.ref
    solo = game.kind.is_solo and game.soloist is not None
    if solo:
        stats.kinds[game.kind].add(ref, (game.soloist in winners) if winners else None)
    else:
        stats.normal.append(ref)
    if game.sitter is not None:
        stats.sat_out.append(ref)
        sitter = game.players[game.sitter - 1]
        if sitter is not None:
            _player(stats, sitter).sat_out.append(ref)
    for position in game.active:
        player = game.players[position - 1]
        if player is None:
            continue
        mine = _player(stats, player)
        won = (position in winners) if winners else None
        points = game.points_of(position)
        mine.all.add(ref, won)
        mine.points += points
        mine.values += value
        score = Score(points, ref)
        if mine.best is None or points > mine.best.points:
            mine.best = score
        if mine.worst is None or points < mine.worst.points:
            mine.worst = score
        if not solo:
            mine.normal.add(ref, won)
        elif position == game.soloist:
            mine.solos[game.kind].add(ref, won)
        else:
            mine.against_solo.add(ref, won)
        side = game.side(position)
        for other in game.active:
            who = game.players[other - 1]
            if other == position or who is None:
                continue
            if other in side:
                if not solo:  # a solo's opponents are a party by force, not partners
                    mine.partners[who].add(ref, won)
            elif winners:
                mine.opponents[who].add(ref, won)


def _add_facts(stats: Statistics, game: GameRecord, facts: GameFacts) -> None:
    """The figures only the facts give (TSR 7.1 for who won): see the module's docstring."""
    ref = game.ref
    won_by = winner(facts)
    stats.known.append(ref)
    normal = facts.kind == "normal"
    if normal:
        stats.re_games.add(ref, None if won_by is None else won_by == RE)
    for party in PARTIES:
        won = None if won_by is None else won_by == party
        if party in facts.announced:
            stats.announced[party].add(ref, won)
        level = facts.absage[party]
        if level is not None:
            stats.absagen[level].add(ref, won)
    for position in game.active:
        player = game.players[position - 1]
        if player is None:
            continue
        mine = _player(stats, player)
        party = RE if position in facts.re else KONTRA
        won = None if won_by is None else won_by == party
        mine.known.append(ref)
        if normal:
            mine.parties[party].add(ref, won)
        if party in facts.announced:
            mine.announced[party].add(ref, won)
        level = facts.absage[party]
        if level is not None:
            mine.absagen[level].add(ref, won)


def _add_rounds(stats: Statistics, games: list[GameRecord]) -> None:
    tables: dict[tuple[int, int, int], list[GameRecord]] = defaultdict(list)
    for game in games:
        tables[game.ref.tournament, game.ref.round, game.ref.table].append(game)
    for (tournament, round_, table), rows in tables.items():
        sums: dict[Player, int] = defaultdict(int)
        for game in rows:
            for position, player in enumerate(game.players, start=1):
                if player is not None:
                    sums[player] += game.points_of(position)
        ref = GameRef(tournament, round_, table, 0)
        stats.rounds += [RoundScore(player, points, ref) for player, points in sums.items()]


def compute(
    games: Iterable[GameRecord], penalties: Iterable[PenaltyRecord] = ()
) -> dict[Hashable, Statistics]:
    """The figures of ``games`` and ``penalties``, one :class:`Statistics` per profile."""
    result: dict[Hashable, Statistics] = {}
    by_profile: dict[Hashable, list[GameRecord]] = defaultdict(list)
    for game in sorted(games, key=lambda g: g.ref):
        by_profile[game.profile].append(game)
    for profile, rows in by_profile.items():
        stats = result[profile] = Statistics(profile)
        for game in rows:
            _add_game(stats, game)
            if game.facts is not None:
                _add_facts(stats, game, game.facts)
        _add_rounds(stats, rows)
    for penalty in sorted(penalties, key=lambda p: p.ref):
        stats = result.setdefault(penalty.profile, Statistics(penalty.profile))
        stats.penalties.append(penalty)
        _player(stats, penalty.player).penalties.append(Score(penalty.points, penalty.ref))
    return result
