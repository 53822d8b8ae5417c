"""Strafpunkte: the per-position distribution of a referee's decision (the penalties of
TSR 9, BSV 9, EPP 8), and the set of penalty rows a Spielliste may legally contain."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

from .errors import InvalidFacts
from .profiles import RuleProfile, UnsportsmanlikeSanction

MAX_K = 4  # Absagen that raise a schwerwiegend penalty: keine 90, 60, 30, schwarz


class Category(StrEnum):
    UNERHEBLICH = "unerheblich"
    GERINGFUEGIG = "geringfuegig"
    SCHWERWIEGEND = "schwerwiegend"
    DECIDED_GAME = "entschieden"  # violation in an already decided game (TSR 9.5.1)
    WARNING = "verwarnung"
    DEDUCTION = "punktabzug"
    DISQUALIFICATION = "disqualifikation"


class Phase(StrEnum):
    """Which scale applies: the normal-game one, or the solo one (for a Hochzeit only after
    the Klärungsstich, for a stille Hochzeit only after the second Kreuz Dame; TSR 4.4)."""

    NORMAL = "normal"
    SOLO = "solo"


@dataclass(frozen=True)
class PenaltyCase:
    table_size: int
    offender: int
    category: Category
    phase: Phase = Phase.NORMAL
    soloist: int | None = None
    sitter: int | None = None  # the dealer at a 5-table; never involved
    disadvantages_soloist: bool = False  # b1 (True) or b2 (False), TSR 9.3.3
    k: int = 0  # Absagen of the offender's opposing party so far (9.4.3) / of the soloist (9.4.4)
    deduction: int = 0  # for Category.DEDUCTION


def _active(case: PenaltyCase) -> list[int]:
    return [p for p in range(1, case.table_size + 1) if p != case.sitter]


def _validate(profile: RuleProfile, case: PenaltyCase) -> None:
    active = _active(case)
    if case.table_size not in (4, 5):
        raise InvalidFacts("bad-table-size", value=case.table_size)
    if case.table_size == 5 and case.sitter is None:
        raise InvalidFacts("dealer-required")
    # Unsportsmanlike conduct (TSR 9.7) can come from anyone, the sitter included; the
    # violations of 9.3-9.5 only from a player in the game.
    unsportsmanlike = case.category in (
        Category.WARNING,
        Category.DEDUCTION,
        Category.DISQUALIFICATION,
    )
    allowed = range(1, case.table_size + 1) if unsportsmanlike else active
    if case.offender not in allowed:
        raise InvalidFacts("offender-not-playing", offender=case.offender)
    if case.phase is Phase.SOLO:
        if case.soloist not in active:
            raise InvalidFacts("soloist-missing")
    elif case.soloist is not None:
        raise InvalidFacts("soloist-in-normal-game")
    if not 0 <= case.k <= MAX_K:
        raise InvalidFacts("bad-k", value=case.k)
    if case.category is Category.DEDUCTION:
        if UnsportsmanlikeSanction.DEDUCTION not in profile.sanctions:
            raise InvalidFacts("deduction-not-allowed")
        if not 1 <= case.deduction <= profile.max_deduction:
            raise InvalidFacts("deduction-out-of-range", maximum=profile.max_deduction)
    if (
        case.category is Category.DISQUALIFICATION
        and UnsportsmanlikeSanction.DISQUALIFICATION not in profile.sanctions
    ) or (
        case.category is Category.WARNING
        and UnsportsmanlikeSanction.WARNING not in profile.sanctions
    ):
        raise InvalidFacts("sanction-not-allowed", category=str(case.category))


def distribute(profile: RuleProfile, case: PenaltyCase) -> tuple[int, ...]:
    """The penalty row, one value per position (the sitter at a 5-table always gets 0)."""
    _validate(profile, case)
    row = dict.fromkeys(range(1, case.table_size + 1), 0)
    category = case.category
    if category is Category.DECIDED_GAME:
        # TSR 9.5.1 adds a geringfügig penalty to the abort; BSV 9.4 does not.
        if not profile.decided_game_extra_penalty:
            return tuple(row.values())
        category = Category.GERINGFUEGIG
    # The soloist when a Kontra player offends in a solo (validated: a solo has one), else None.
    soloist = case.soloist if case.phase is Phase.SOLO and case.offender != case.soloist else None
    if category is Category.GERINGFUEGIG:
        if soloist is not None and case.disadvantages_soloist:  # 9.3.3 b1
            row[case.offender], row[soloist] = -3, 3
        else:  # 9.3.2, 9.3.3 a and b2
            _spread(row, case, 3, 1)
    elif category is Category.SCHWERWIEGEND:
        penalty = 12 + 3 * case.k
        if soloist is not None:  # 9.4.4: the solo counts as played, only the soloist is credited
            row[case.offender], row[soloist] = -penalty, penalty
        else:  # 9.4.3: the game counts as not played
            _spread(row, case, penalty, 4 + case.k)
    elif category is Category.DEDUCTION:
        row[case.offender] = -case.deduction  # 9.7.2 b: nobody is credited
    return tuple(row.values())


def _spread(row: dict[int, int], case: PenaltyCase, penalty: int, credit: int) -> None:
    for position in _active(case):
        row[position] = -penalty if position == case.offender else credit


@lru_cache(maxsize=512)
def legal_rows(
    profile: RuleProfile, table_size: int, sitter: int | None, soloist: int | None
) -> set[tuple[int, ...]]:
    """Every penalty row a Spielliste may contain for a game with this sitter and soloist."""
    rows: set[tuple[int, ...]] = {tuple([0] * table_size)}
    active = [p for p in range(1, table_size + 1) if p != sitter]
    phases = [Phase.NORMAL] + ([Phase.SOLO] if soloist in active else [])
    categories = [Category.GERINGFUEGIG, Category.SCHWERWIEGEND, Category.DECIDED_GAME]
    for offender in active:
        for phase in phases:
            for category in categories:
                for k in range(MAX_K + 1):
                    for b1 in (False, True):
                        case = PenaltyCase(
                            table_size,
                            offender,
                            category,
                            phase,
                            soloist if phase is Phase.SOLO else None,
                            sitter,
                            b1,
                            k,
                        )
                        rows.add(distribute(profile, case))
    if UnsportsmanlikeSanction.DEDUCTION in profile.sanctions:
        for offender in range(1, table_size + 1):
            for amount in range(1, profile.max_deduction + 1):
                case = PenaltyCase(
                    table_size, offender, Category.DEDUCTION, sitter=sitter, deduction=amount
                )
                rows.add(distribute(profile, case))
    return rows


# The amounts a solo penalty credits the soloist with that are odd: 9.3.3 b1 (3) and 9.4.4
# with one or three Absagen of the soloist (12 + 3k = 15, 21). 12, 18 and 24 are even.
ODD_SOLO_CREDITS = (3, 15, 21)


def parity_exception(row: tuple[int, ...], soloist: int | None) -> bool:
    """The one list of rows that may break the even/odd rule of a 4-table (TSR 7.3.3 (2)):

    - a penalty in a solo in favour of the soloist with an odd amount: the soloist +a, the
      offender -a, the others 0, for a = 3 (9.3.3 b1), 15 or 21 (9.4.4, k = 1 or 3);
    - a point deduction for unsportsmanlike conduct (9.7.2 b): one player minus up to 12,
      nobody credited, so it may be odd (and does not add up to 0 either).

    Every game row keeps the rule. :func:`legal_rows` produces exactly these exceptions (a
    test compares them), and the sheet check reports an even/odd break on a penalty row
    only when the row is none of them."""
    if is_deduction(row):
        return True
    if soloist is None or not 1 <= soloist <= len(row):
        return False
    credit = row[soloist - 1]
    rest = sorted(v for p, v in enumerate(row, start=1) if p != soloist and v)
    return credit in ODD_SOLO_CREDITS and rest == [-credit]


def is_deduction(row: tuple[int, ...]) -> bool:
    """A row with a single negative value and nothing else: an unsportsmanlike deduction."""
    negatives = [v for v in row if v < 0]
    return len(negatives) == 1 and all(v == 0 for v in row if v >= 0)


def solo_penalty_in_game_row(row: tuple[int, ...], soloist: int | None) -> tuple[int, int] | None:
    """(offender, amount) when a solo's own row holds a TSR 9.4.4 result instead of the game:
    an opponent's serious violation makes the solo count as played, the soloist +(12+3k), the
    offender -(12+3k) and everybody else 0 (e.g. 0, +15, -15, 0). Referees write it so on a
    paper list; here a penalty is a row of its own. No solo gives these values (its opponents
    all get the same), so the pattern is never a game. None when the row is something else."""
    if soloist is None or not 1 <= soloist <= len(row):
        return None
    amount = row[soloist - 1]
    if amount not in {12 + 3 * k for k in range(MAX_K + 1)}:
        return None
    others = [(p, v) for p, v in enumerate(row, start=1) if p != soloist and v]
    if len(others) != 1 or others[0][1] != -amount:
        return None
    return others[0][0], amount
