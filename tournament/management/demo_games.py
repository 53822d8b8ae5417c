"""Realistic, valid Spiellisten made by the rules engine: for the demo tournament, the tests
and the benchmarks.

Each game is played out as facts (who is Re, the eyes, announcements, Sonderpunkte) and
scored by :func:`scoring.game.evaluate`; the ledger decides the dealer, the sitter and when
a Pflichtsolo must be vorgeführt. Pflichtsoli are spread over the round, some are left for
vorführen, an occasional Lustsolo or stille Hochzeit comes on top. No Django import.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from scoring.game import evaluate, parse_facts, possible_eyes
from scoring.kinds import Kind
from scoring.ledger import PlayedGame, walk
from scoring.profiles import RuleProfile


@dataclass(frozen=True)
class DemoGame:
    kind: str  # a GameKind value of tournament.models: the kind's name in lower case
    soloist: int | None
    points: tuple[int, ...]
    facts: dict | None = None  # what the game was played as (scoring.game.parse_facts)


def _eyes(rng: random.Random, cards: int) -> int:
    """Re's eyes: mostly a close game, sometimes a clear one; never a total the pack cannot
    give (1 eye, or 1 to 7 without the nines): those become the nearest possible one."""
    eyes = max(0, min(240, int(rng.gauss(125, 40))))
    return min(possible_eyes(cards), key=lambda t: (abs(t - eyes), t))


def _facts(
    rng: random.Random, size: int, dealer: int, re: list[int], solo: bool, cards: int
) -> dict:
    facts: dict = {
        "table_size": size,
        "dealer": dealer,
        "kind": "solo" if solo else "normal",
        "re": re,
        "re_eyes": _eyes(rng, cards),
    }
    announced = [p for p in ("re", "kontra") if rng.random() < 0.25]
    if announced:
        facts["announced"] = announced
    if not solo and rng.random() < 0.4:
        facts["sonderpunkte"] = {"re": rng.randint(0, 2), "kontra": rng.randint(0, 1)}
    return facts


def play_sheet(
    profile: RuleProfile, size: int, rng: random.Random, games: int | None = None
) -> list[DemoGame]:
    """A sheet of ``games`` games (default: the nominal count) that the checks accept."""
    total = profile.games_per_round(size) if games is None else games
    played: list[PlayedGame] = []
    result: list[DemoGame] = []
    for number in range(1, total + 1):
        step = walk(profile, size, played)[-1]
        active = [p for p in range(1, size + 1) if p != step.sitter]
        owing = [p for p in step.owing_before if p in active]
        remaining = profile.games_per_round(size) - number + 1
        kind, soloist = Kind.NORMAL, None
        if step.vorfuehren is not None:
            kind, soloist = Kind.VORGEFUEHRT, step.vorfuehren
        elif owing and rng.random() < 0.8 * len(owing) / max(remaining, 1):
            kind, soloist = Kind.PFLICHTSOLO, rng.choice(owing)
        elif rng.random() < 0.04:
            done = [p for p in active if p not in step.owing_before]
            if done or not profile.lustsolo_only_after_pflichtsolo:
                kind, soloist = Kind.LUSTSOLO, rng.choice(done or active)
        if soloist is None:  # Kind.NORMAL: every other kind has its soloist
            re = sorted(rng.sample(active, 2))
            facts = _facts(rng, size, step.dealer, re, False, profile.cards)
        else:
            facts = _facts(rng, size, step.dealer, [soloist], True, profile.cards)
        points = evaluate(profile, parse_facts(facts, profile.cards)).points
        if kind is Kind.NORMAL and rng.random() < 0.03:
            # A stille Hochzeit: the Hochzeit player played alone, scored as a solo.
            soloist = rng.choice(active)
            facts = _facts(rng, size, step.dealer, [soloist], True, profile.cards)
            points = evaluate(profile, parse_facts(facts, profile.cards)).points
            kind = Kind.STILLE_HOCHZEIT
        played.append(PlayedGame(kind, soloist))
        result.append(DemoGame(kind.name.lower(), soloist, points, facts))
    return result
