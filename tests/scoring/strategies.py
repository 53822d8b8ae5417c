"""Hypothesis strategies: whole Spiellisten built from valid games only."""

from hypothesis import strategies as st

from scoring.game import evaluate, parse_facts, possible_eyes
from scoring.kinds import Kind
from scoring.ledger import PlayedGame, walk
from scoring.penalties import Category, PenaltyCase, Phase, distribute
from scoring.profiles import RuleProfile
from scoring.sheet import SheetRow

ABSAGE = [None, 90, 60, 30, 0]


@st.composite
def game_facts(draw, table_size: int, dealer: int, soloist: int | None, cards: int = 48):
    """Facts of one valid game at a table, played with ``cards`` cards; ``soloist`` set means
    a solo. An Absage may come without the party's own announcement (TSR 6.4.3)."""
    active = [p for p in range(1, table_size + 1) if not (table_size == 5 and p == dealer)]
    re = sorted(draw(st.permutations(active))[:2]) if soloist is None else [soloist]
    re_eyes = draw(st.sampled_from(sorted(possible_eyes(cards))))
    re_no_trick = re_eyes == 0 and draw(st.booleans())
    kontra_no_trick = re_eyes == 240 and draw(st.booleans())
    announced = draw(st.sets(st.sampled_from(["re", "kontra"])))
    absage = {party: draw(st.sampled_from(ABSAGE)) for party in ("re", "kontra")}
    sonderpunkte = {"re": 0, "kontra": 0}
    if soloist is None:
        sonderpunkte = {"re": draw(st.integers(0, 3)), "kontra": draw(st.integers(0, 3))}
    return parse_facts(
        {
            "table_size": table_size,
            "dealer": dealer,
            "kind": "normal" if soloist is None else "solo",
            "re": re,
            "re_eyes": re_eyes,
            "re_no_trick": re_no_trick,
            "kontra_no_trick": kontra_no_trick,
            "announced": sorted(announced),
            "absage": absage,
            "sonderpunkte": sonderpunkte,
        }
    )


@st.composite
def valid_sheets(draw, profile: RuleProfile, table_size: int, with_penalties: bool = True):
    """A complete, correct Spielliste: every rule of the ledger followed, every row the
    value of a real game (and, sometimes, legal penalty rows in between)."""
    nominal = profile.games_per_round(table_size)
    games: list[PlayedGame] = []
    rows: list[SheetRow] = []
    played: set[int] = set()
    for number in range(1, nominal + 1):
        step = walk(profile, table_size, games)[-1]
        active = [p for p in range(1, table_size + 1) if p != step.sitter]
        if step.vorfuehren is not None:
            kind, soloist = Kind.VORGEFUEHRT, step.vorfuehren
        else:
            owing = [p for p in active if p not in played]
            done = [p for p in active if p in played]
            options = [(Kind.NORMAL, None)] * 4
            options += [(Kind.PFLICHTSOLO, p) for p in owing]
            options += [(Kind.LUSTSOLO, p) for p in done]
            options += [(Kind.HOCHZEIT, p) for p in active]
            kind, soloist = draw(st.sampled_from(options))
        facts = draw(game_facts(table_size, step.dealer, soloist, profile.cards))
        points = evaluate(profile, facts).points
        if kind.is_pflichtsolo:
            played.add(soloist)
        games.append(PlayedGame(kind, soloist))
        rows.append(SheetRow(number, kind, soloist, points))
        if with_penalties and draw(st.integers(0, 9)) == 0:
            rows.append(draw(penalty_rows(profile, table_size, number, step.sitter, soloist)))
    return rows


@st.composite
def penalty_rows(draw, profile, table_size, number, sitter, soloist):
    active = [p for p in range(1, table_size + 1) if p != sitter]
    phase = draw(st.sampled_from([Phase.NORMAL] + ([Phase.SOLO] if soloist else [])))
    category = draw(st.sampled_from([Category.GERINGFUEGIG, Category.SCHWERWIEGEND]))
    case = PenaltyCase(
        table_size=table_size,
        offender=draw(st.sampled_from(active)),
        category=category,
        phase=phase,
        soloist=soloist if phase is Phase.SOLO else None,
        sitter=sitter,
        disadvantages_soloist=draw(st.booleans()),
        k=draw(st.integers(0, 4)),
    )
    marked = soloist if phase is Phase.SOLO else None
    return SheetRow(number, Kind.PENALTY, marked, distribute(profile, case))
