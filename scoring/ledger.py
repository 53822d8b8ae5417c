"""Who deals, who sits out, who still owes a Pflichtsolo, and when one must be vorgeführt
(TSR 3.1.1, 3.3.1, 4.2.3-4.2.5, 10.1)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .kinds import Kind
from .profiles import RuleProfile


@dataclass(frozen=True)
class PlayedGame:
    """What the ledger needs of one game: its kind and soloist."""

    kind: Kind
    soloist: int | None = None


@dataclass(frozen=True)
class LedgerStep:
    """The state before game ``game`` and what the game changed."""

    game: int
    dealer: int
    sitter: int | None  # the dealer at a 5-table
    vorfuehren: int | None  # the position that must play this game as vorgeführtes Pflichtsolo
    vorfuehren_forced: bool  # True when the count forces it (not only the time-limit tail)
    owing_before: tuple[int, ...]  # positions lacking a Pflichtsolo before this game
    owing_after: tuple[int, ...]  # ... and after it (for a step not yet played: as before)


# Position 1 deals the first game of a round; the deal passes clockwise (to the left).
FIRST_DEALER = 1


def clockwise(position: int, table_size: int) -> int:
    return position % table_size + 1


def sitter(dealer: int, table_size: int) -> int | None:
    """Who sits out a game: the dealer at a five-player table; nobody at a four-table."""
    return dealer if table_size == 5 else None


def dealing_order(table_size: int, games: int) -> list[tuple[int, int | None]]:
    """(dealer, sitter) of each of ``games`` games when every deal passes on (no game makes
    its dealer deal again): the order a blank Spielliste shows. :func:`walk` follows the same
    rule and adds what the games played change."""
    order = []
    dealer = FIRST_DEALER
    for _ in range(games):
        order.append((dealer, sitter(dealer, table_size)))
        dealer = clockwise(dealer, table_size)
    return order


def _owing(table_size: int, played: dict[int, int], required: int) -> tuple[int, ...]:
    return tuple(p for p in range(1, table_size + 1) if played.get(p, 0) < required)


def _missing(played: dict[int, int], table_size: int, required: int) -> int:
    return sum(max(0, required - played.get(p, 0)) for p in range(1, table_size + 1))


def _vorfuehren_candidate(
    profile: RuleProfile, table_size: int, dealer: int, owing: tuple[int, ...]
) -> tuple[int, int | None]:
    """(dealer, position to be vorgeführt): the owing player next to the dealer's left,
    the dealer himself last (TSR 4.2.3). At a 5-table the dealer sits out; if he is the only
    one owing, the deal passes to his left neighbour so that he can play (profile setting)."""
    order = [clockwise(dealer + i - 1, table_size) for i in range(1, table_size + 1)]
    for position in order:  # dealer + 1, dealer + 2, ..., dealer
        if position in owing and position != sitter(dealer, table_size):
            return dealer, position
    if sitter(dealer, table_size) in owing and profile.vorfuehren_sitter_passes_deal:
        return clockwise(dealer, table_size), dealer
    return dealer, None


def walk(
    profile: RuleProfile,
    table_size: int,
    games: Sequence[PlayedGame],
    *,
    nominal_games: int | None = None,
    time_limit_from: int | None = None,
) -> list[LedgerStep]:
    """The ledger for every game of ``games`` plus one step for the next game to play.

    ``time_limit_from`` is the first game played after the time limit: from there on, every
    owing player is vorgeführt (TSR 8.5.1, 8.6) regardless of the count.
    """
    required = profile.pflichtsoli_per_round
    total = nominal_games if nominal_games is not None else profile.games_per_round(table_size)
    played: dict[int, int] = {}
    dealer = FIRST_DEALER
    steps: list[LedgerStep] = []
    for index in range(len(games) + 1):
        number = index + 1
        owing = _owing(table_size, played, required)
        missing = _missing(played, table_size, required)
        remaining = total - index
        forced = missing > 0 and missing >= remaining
        after_limit = time_limit_from is not None and number >= time_limit_from and missing > 0
        game_dealer, must = dealer, None
        if forced or after_limit:
            game_dealer, must = _vorfuehren_candidate(profile, table_size, dealer, owing)
        game = games[index] if index < len(games) else None  # None: the next game
        if game is not None and game.kind.is_pflichtsolo and game.soloist is not None:
            played[game.soloist] = played.get(game.soloist, 0) + 1
        steps.append(
            LedgerStep(
                game=number,
                dealer=game_dealer,
                sitter=sitter(game_dealer, table_size),
                vorfuehren=must,
                vorfuehren_forced=forced,
                owing_before=owing,
                owing_after=_owing(table_size, played, required),
            )
        )
        if game is None:
            break
        repeats = (game.kind is Kind.PFLICHTSOLO and profile.pflichtsolo_dealer_repeats) or (
            game.kind is Kind.VORGEFUEHRT and profile.vorgefuehrt_dealer_repeats
        )
        dealer = game_dealer if repeats else clockwise(game_dealer, table_size)
    return steps
