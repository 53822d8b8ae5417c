"""The value of one game from its facts (TSR 6.4.3, 7.1-7.2, EPP 6.2).

:func:`parse_facts` turns a JSON-like mapping into :class:`GameFacts` or raises
:class:`~scoring.errors.InvalidFacts`; :func:`evaluate` scores valid facts for a profile.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

from . import ledger
from .errors import InvalidFacts
from .profiles import RuleProfile, Scoring

RE = "re"
KONTRA = "kontra"
PARTIES = (RE, KONTRA)
ABSAGE_LEVELS = (90, 60, 30, 0)  # 0 = schwarz; each one implies the ones before it
# (an opponent's Absage, eyes a party needs to score "reached against" it), TSR 7.2.2 (e, f)
REACHED_AGAINST = ((90, 120), (60, 90), (30, 60), (0, 30))


@dataclass(frozen=True)
class GameFacts:
    """What happened in one game, as the list keeper or referee knows it."""

    table_size: int
    # How the game is scored: "normal" or "solo". Not the row's kind (scoring.kinds): a
    # game's value depends only on this, while which solo it was (Pflichtsolo, Lustsolo,
    # stille Hochzeit, ...) matters to the ledger alone; every row kind with ``is_solo`` is
    # scored as "solo". The calculator and the gamevalue JSON ask for nothing more.
    kind: str
    re: tuple[int, ...]
    re_eyes: int
    dealer: int | None = None
    re_no_trick: bool = False
    kontra_no_trick: bool = False
    announced: frozenset[str] = frozenset()
    absage: Mapping[str, int | None] = field(default_factory=lambda: {RE: None, KONTRA: None})
    sonderpunkte: Mapping[str, int] = field(default_factory=lambda: {RE: 0, KONTRA: 0})

    def __post_init__(self) -> None:
        # Skipped levels count, the party's own announcement included (TSR 6.4.3, BSV 6.5,
        # EPP 5.5.3): "keine 60" alone stands for "Kontra", keine 90, keine 60.
        implied = {party for party in PARTIES if self.absage.get(party) is not None}
        object.__setattr__(self, "announced", frozenset(self.announced) | implied)

    @property
    def sitter(self) -> int | None:
        """At a 5-table the dealer sits out and scores 0 (TSR 10.1.1)."""
        return None if self.dealer is None else ledger.sitter(self.dealer, self.table_size)

    @property
    def kontra(self) -> tuple[int, ...]:
        return tuple(
            p for p in range(1, self.table_size + 1) if p not in self.re and p != self.sitter
        )

    def eyes(self, party: str) -> int:
        return self.re_eyes if party == RE else 240 - self.re_eyes

    def no_trick(self, party: str) -> bool:
        return self.re_no_trick if party == RE else self.kontra_no_trick


@dataclass(frozen=True)
class GameResult:
    winner: str | None  # "re", "kontra" or None when neither party reached its target
    value: int  # v before the solo tripling (plus-minus: after netting the Sonderpunkte)
    points: tuple[int, ...]  # per position 1..table_size

    def as_dict(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "value": self.value,
            "points": {str(i): p for i, p in enumerate(self.points, start=1)},
        }


def other(party: str) -> str:
    return KONTRA if party == RE else RE


def _int(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidFacts("not-a-number", field=name, value=value)
    return value


def _bool(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        raise InvalidFacts("not-a-boolean", field=name, value=value)
    return value


@cache
def possible_eyes(cards: int) -> frozenset[int]:
    """Every number of card points a party can hold at the end: sums over whole tricks
    (four cards each) of a pack with two of each card: ace 11, ten 10, king 4, queen 3,
    jack 2 and, in the 48-card pack, nine 0. Nobody can have 1 (no card is worth 1);
    without the nines every trick holds at least 8, so 1 to 7 cannot happen either —
    and the same for the other party, 240 minus those."""
    ranks = (11, 10, 4, 3, 2, 0) if cards == 48 else (11, 10, 4, 3, 2)
    each = cards // len(ranks)  # 8 of every rank: 2 of each suit
    reachable = {(0, 0)}  # (cards taken, card points)
    for eyes in ranks:
        reachable = {(n + c, t + c * eyes) for n, t in reachable for c in range(each + 1)}
    return frozenset(t for n, t in reachable if n % 4 == 0)


def check_eyes(re_eyes: int, cards: int) -> None:
    """Raise :class:`InvalidFacts` when no deal of the pack gives Re ``re_eyes`` points."""
    if re_eyes not in possible_eyes(cards):
        smallest = min(possible_eyes(cards) - {0})
        raise InvalidFacts(
            "eyes-impossible", value=re_eyes, other=240 - re_eyes, smallest=smallest, cards=cards
        )


def parse_facts(data: Mapping[str, Any], cards: int = 48) -> GameFacts:
    """Validate raw facts (as in the ``gamevalue`` command's JSON) for a game played with a
    pack of ``cards`` cards (the profile's: 48, or 40 without the nines) and build
    GameFacts."""
    if not isinstance(data, Mapping):
        raise InvalidFacts("not-an-object")
    known = {
        "table_size",
        "dealer",
        "kind",
        "re",
        "re_eyes",
        "re_no_trick",
        "kontra_no_trick",
        "announced",
        "absage",
        "sonderpunkte",
    }
    unknown = sorted(set(data) - known)
    if unknown:
        raise InvalidFacts("unknown-field", field=unknown[0])
    for required in ("table_size", "kind", "re", "re_eyes"):
        if required not in data:
            raise InvalidFacts("missing-field", field=required)

    size = _int(data["table_size"], "table_size")
    if size not in (4, 5):
        raise InvalidFacts("bad-table-size", value=size)
    dealer = data.get("dealer")
    if dealer is not None:
        dealer = _int(dealer, "dealer")
        if not 1 <= dealer <= size:
            raise InvalidFacts("dealer-outside-table", dealer=dealer, size=size)
    elif size == 5:
        raise InvalidFacts("dealer-required")

    kind = data["kind"]
    if kind not in ("normal", "solo"):
        raise InvalidFacts("bad-kind", value=kind)
    re_list = data["re"]
    if not isinstance(re_list, list | tuple):
        raise InvalidFacts("bad-re", value=re_list)
    re = tuple(_int(p, "re") for p in re_list)
    if len(set(re)) != len(re) or any(not 1 <= p <= size for p in re):
        raise InvalidFacts("bad-re", value=list(re))
    expected = 1 if kind == "solo" else 2
    if len(re) != expected:
        raise InvalidFacts("re-count", kind=kind, expected=expected, given=len(re))
    if size == 5 and dealer in re:
        raise InvalidFacts("sitter-plays", dealer=dealer)

    re_eyes = _int(data["re_eyes"], "re_eyes")
    if not 0 <= re_eyes <= 240:
        raise InvalidFacts("eyes-out-of-range", value=re_eyes)
    check_eyes(re_eyes, cards)
    re_no_trick = _bool(data.get("re_no_trick", False), "re_no_trick")
    kontra_no_trick = _bool(data.get("kontra_no_trick", False), "kontra_no_trick")
    if (re_no_trick and re_eyes != 0) or (kontra_no_trick and re_eyes != 240):
        raise InvalidFacts("no-trick-with-eyes", re_eyes=re_eyes)
    if re_no_trick and kontra_no_trick:
        raise InvalidFacts("both-no-trick")

    announced_raw = data.get("announced", [])
    if not isinstance(announced_raw, list | tuple) or any(a not in PARTIES for a in announced_raw):
        raise InvalidFacts("bad-announced", value=announced_raw)
    announced = frozenset(announced_raw)

    absage_raw = data.get("absage") or {}
    if not isinstance(absage_raw, Mapping) or set(absage_raw) - set(PARTIES):
        raise InvalidFacts("bad-absage", value=absage_raw)
    absage: dict[str, int | None] = {}
    for party in PARTIES:
        level = absage_raw.get(party)
        if level is not None:
            level = _int(level, f"absage.{party}")
            if level not in ABSAGE_LEVELS:
                raise InvalidFacts("bad-absage", value=level)
        absage[party] = level

    sp_raw = data.get("sonderpunkte") or {}
    if not isinstance(sp_raw, Mapping) or set(sp_raw) - set(PARTIES):
        raise InvalidFacts("bad-sonderpunkte", value=sp_raw)
    sonderpunkte = {}
    for party in PARTIES:
        count = _int(sp_raw.get(party, 0), f"sonderpunkte.{party}")
        if count < 0 or count > 12:
            raise InvalidFacts("bad-sonderpunkte", value=count)
        if count and kind == "solo":
            raise InvalidFacts("sonderpunkte-in-solo")
        sonderpunkte[party] = count

    return GameFacts(
        table_size=size,
        kind=kind,
        re=re,
        re_eyes=re_eyes,
        dealer=dealer,
        re_no_trick=re_no_trick,
        kontra_no_trick=kontra_no_trick,
        announced=announced,
        absage=absage,
        sonderpunkte=sonderpunkte,
    )


def absage_count(level: int | None) -> int:
    """How many Absage steps a highest Absage stands for: keine 60 = keine 90 + keine 60."""
    return 0 if level is None else ABSAGE_LEVELS.index(level) + 1


def _below(facts: GameFacts, party: str, limit: int) -> bool:
    """Did ``party`` stay below ``limit`` eyes (0 = schwarz: took no trick at all)?"""
    if limit == 0:
        return facts.no_trick(party)
    return facts.eyes(party) < limit


def _reached_target(facts: GameFacts, party: str) -> bool:
    level = facts.absage[party]
    return level is not None and _below(facts, other(party), level)


def _wins_without_absage(facts: GameFacts, party: str) -> bool:
    """TSR 7.1.1/7.1.2 for a party that made no Absage itself."""
    opponent_level = facts.absage[other(party)]
    if opponent_level is not None:
        # The opponent promised to keep us below a limit: reaching it is enough.
        return not _below(facts, party, opponent_level)
    only_kontra = facts.announced == frozenset({KONTRA})
    needed = 121 if party == RE else 120
    if only_kontra:
        needed = 120 if party == RE else 121
    return facts.eyes(party) >= needed


def winner(facts: GameFacts) -> str | None:
    """The party that won (TSR 7.1), or None when both missed the targets they announced."""
    for party in PARTIES:
        if facts.absage[party] is not None:
            if _reached_target(facts, party):
                return party
        elif _wins_without_absage(facts, party):
            return party
    return None


def under_points(facts: GameFacts, party: str) -> int:
    """+1 for each of: opponent under 90, under 60, under 30, schwarz (TSR 7.2.2 a)."""
    return sum(_below(facts, other(party), limit) for limit in ABSAGE_LEVELS)


def reached_against_points(facts: GameFacts, party: str) -> int:
    """+1 for each opponent Absage against which ``party`` still reached the eyes
    (TSR 7.2.2 e, f): 120 against keine 90, 90 against keine 60, ..."""
    steps = absage_count(facts.absage[other(party)])
    return sum(facts.eyes(party) >= need for _, need in REACHED_AGAINST[:steps])


def evaluate(profile: RuleProfile, facts: GameFacts) -> GameResult:
    """Score a game: the winner, the value and the row of points per position. Raises
    :class:`InvalidFacts` when Re's card points cannot happen with the profile's pack."""
    check_eyes(facts.re_eyes, profile.cards)
    if profile.cards == 40:
        # Without the nines every trick holds at least 8 eyes: 0 eyes means no trick.
        facts = replace(
            facts,
            re_no_trick=facts.re_no_trick or facts.re_eyes == 0,
            kontra_no_trick=facts.kontra_no_trick or facts.re_eyes == 240,
        )
    if profile.scoring is Scoring.PLUS_POINTS:
        return _plus_points(facts)
    return _plus_minus(facts)


def _plus_minus(facts: GameFacts) -> GameResult:
    won_by = winner(facts)
    base = sum(absage_count(facts.absage[p]) for p in PARTIES) + 2 * len(facts.announced)
    if won_by is not None:
        value = 1 + under_points(facts, won_by) + base
        value += reached_against_points(facts, won_by) - reached_against_points(
            facts, other(won_by)
        )
        re_points = value if won_by == RE else -value
    else:
        # TSR 7.1.3: nobody won; only the under-x and reached-against points count.
        re_points = (
            under_points(facts, RE)
            + reached_against_points(facts, RE)
            - under_points(facts, KONTRA)
            - reached_against_points(facts, KONTRA)
        )
    if facts.kind == "normal":
        special_re = facts.sonderpunkte[RE]
        special_kontra = facts.sonderpunkte[KONTRA] + (won_by == KONTRA)  # gegen die Alten
        re_points += special_re - special_kontra
        return GameResult(won_by, abs(re_points), _row(facts, re_points, -re_points))
    return GameResult(won_by, abs(re_points), _row(facts, 3 * re_points, -re_points))


def _plus_points(facts: GameFacts) -> GameResult:
    """EPP 6.2: only the winners score; "Re" and "Kontra" each double the points."""
    won_by = winner(facts)
    if won_by is not None:
        value = 1 + under_points(facts, won_by)
        value += sum(absage_count(facts.absage[p]) for p in PARTIES)
        if facts.kind == "normal" and won_by == KONTRA:
            value += 1  # gegen die Kreuz Damen gewonnen, part of (a) and so doubled
        value *= 2 ** len(facts.announced)
        scorer = won_by
    else:
        # EPP 6.1.4: only the under-x points; at most one party can have any.
        scorer = RE if under_points(facts, RE) else KONTRA
        value = under_points(facts, scorer)
    gained = {RE: 0, KONTRA: 0}
    gained[scorer] = value
    if facts.kind == "normal":
        for party in PARTIES:
            gained[party] += facts.sonderpunkte[party]
        return GameResult(won_by, value, _row(facts, gained[RE], gained[KONTRA]))
    return GameResult(won_by, value, _row(facts, 3 * gained[RE], gained[KONTRA]))


def _row(facts: GameFacts, re_each: int, kontra_each: int) -> tuple[int, ...]:
    row = []
    for position in range(1, facts.table_size + 1):
        if position == facts.sitter:
            row.append(0)
        elif position in facts.re:
            row.append(re_each)
        else:
            row.append(kontra_each)
    return tuple(row)


def facts_dict(facts: GameFacts) -> dict[str, Any]:
    """``facts`` as plain data that :func:`parse_facts` reads back to the same facts (to
    store with a game): an announcement an Absage implies is written out."""
    return {
        "table_size": facts.table_size,
        "dealer": facts.dealer,
        "kind": facts.kind,
        "re": list(facts.re),
        "re_eyes": facts.re_eyes,
        "re_no_trick": facts.re_no_trick,
        "kontra_no_trick": facts.kontra_no_trick,
        "announced": [p for p in PARTIES if p in facts.announced],
        "absage": {p: facts.absage[p] for p in PARTIES},
        "sonderpunkte": {p: facts.sonderpunkte[p] for p in PARTIES},
    }


def facts_of_row(
    profile: RuleProfile,
    data: Mapping[str, Any] | None,
    *,
    solo: bool,
    soloist: int | None,
    points: tuple[int, ...] | list[int],
    sitter: int | None = None,
) -> GameFacts | None:
    """The facts ``data`` when they give exactly this row of the Spielliste (a solo or not,
    its soloist, the points of every position and, when known, the position that sat out),
    else None: a game's facts are kept only while its row says what they say."""
    if data is None:
        return None
    try:
        facts = parse_facts(data, profile.cards)
        result = evaluate(profile, facts)
    except InvalidFacts:
        return None
    if facts.table_size != len(points) or (facts.kind == "solo") != solo:
        return None
    if solo and facts.re != (soloist,):
        return None
    if facts.table_size == 5 and sitter is not None and facts.sitter != sitter:
        return None
    return facts if tuple(result.points) == tuple(points) else None
