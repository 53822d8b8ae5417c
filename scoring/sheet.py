"""Checks on a Spielliste (TSR 7.3.3, 9.7.2, 10.1, BSV 7.3): findings, never exceptions.

A sheet is a list of :class:`SheetRow`: games numbered 1, 2, 3, ... and penalty rows (kind
``S``) carrying the number of the game they were given in. :func:`check_sheet` returns every
problem as a :class:`Finding` with a stable code; the user interface turns the code into a
sentence. Paper lists are cumulative: :func:`from_cumulative` turns running totals into
per-game values first.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .kinds import Kind
from .ledger import LedgerStep, PlayedGame, walk
from .penalties import (
    ODD_SOLO_CREDITS,
    is_deduction,
    legal_rows,
    parity_exception,
    solo_penalty_in_game_row,
)
from .profiles import RuleProfile, Scoring, UnsportsmanlikeSanction

ERROR = "error"
WARNING = "warning"


@dataclass(frozen=True)
class SheetRow:
    game: int
    kind: Kind
    soloist: int | None
    points: tuple[int, ...]


@dataclass(frozen=True)
class Finding:
    level: str
    code: str
    game: int
    params: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {"game": self.game, "level": self.level, "code": self.code, **self.params}


def from_cumulative(rows: Sequence[SheetRow]) -> list[SheetRow]:
    """Per-row values from running totals, as a paper list is kept."""
    result = []
    previous: tuple[int, ...] = ()
    for row in rows:
        before = previous or (0,) * len(row.points)
        delta = tuple(now - was for now, was in zip(row.points, before, strict=True))
        result.append(SheetRow(row.game, row.kind, row.soloist, delta))
        previous = row.points
    return result


def to_cumulative(rows: Sequence[Sequence[int]]) -> list[tuple[int, ...]]:
    """The running totals after each row: what the paper list shows (the inverse of
    :func:`from_cumulative`)."""
    result: list[tuple[int, ...]] = []
    for points in rows:
        before = result[-1] if result else (0,) * len(points)
        result.append(tuple(was + now for was, now in zip(before, points, strict=True)))
    return result


def as_played(
    profile: RuleProfile,
    table_size: int,
    rows: Sequence[SheetRow],
    *,
    time_limit_from: int | None = None,
) -> list[SheetRow]:
    """The rows of a paper list with what the paper cannot say filled in: it has no letter
    for a vorgeführtes Pflichtsolo, every Pflichtsolo goes in the same column (TSR 4.2.4).
    A Pflichtsolo played in a game where vorführen was due (TSR 4.2.3: as many Pflichtsoli
    missing as games left; or after the time limit, TSR 8.5.1, 8.6), by the player who had
    to be vorgeführt, was that vorgeführte Pflichtsolo, and is read as one. Every other row
    stays as written; penalty rows are passed through."""
    played: list[PlayedGame] = []
    result = []
    for row in rows:
        if row.kind.is_game:
            if row.kind is Kind.PFLICHTSOLO and row.soloist is not None:
                # The step of the game about to be played: what the games so far make due.
                due = walk(profile, table_size, played, time_limit_from=time_limit_from)[-1]
                if due.vorfuehren == row.soloist:
                    row = SheetRow(row.game, Kind.VORGEFUEHRT, row.soloist, row.points)
            played.append(PlayedGame(row.kind, row.soloist))
        result.append(row)
    return result


def totals(rows: Iterable[SheetRow], table_size: int) -> tuple[int, ...]:
    sums = [0] * table_size
    for row in rows:
        for index, value in enumerate(row.points):
            sums[index] += value
    return tuple(sums)


def check_sheet(
    profile: RuleProfile,
    table_size: int,
    rows: Sequence[SheetRow],
    *,
    complete: bool = True,
    time_limit_from: int | None = None,
    running_totals: bool = False,
) -> list[Finding]:
    """Every finding on a sheet. ``complete`` means the round is over: missing Pflichtsoli
    and a short game count are then reported. ``time_limit_from`` is the first game played
    after the time limit, if the list keeper marked it; otherwise a closing run of
    vorgeführte Pflichtsoli on a short sheet is taken as the time-limit tail.
    ``running_totals``: the list was written as running totals (``rows`` hold the
    differences, as :func:`from_cumulative` makes them), so one wrong total shows as two
    rows that do not add up; it is then named as one wrong cell (:func:`_wrong_totals`)."""
    findings: list[Finding] = []
    games = [r for r in rows if r.kind is not Kind.PENALTY]
    findings += _check_numbering(games)
    nominal = profile.games_per_round(table_size)
    marked_limit = time_limit_from
    if time_limit_from is None and len(games) < nominal:
        time_limit_from = _tail_start(games)
    steps = walk(
        profile,
        table_size,
        [PlayedGame(g.kind, g.soloist) for g in games],
        time_limit_from=time_limit_from,
    )
    by_number = {g.game: (g, step) for g, step in zip(games, steps, strict=False)}
    sitters = {id(g): step.sitter for g, step in zip(games, steps, strict=False)}

    def check_row(row: SheetRow, points: tuple[int, ...] | None = None) -> list[Finding]:
        """The checks of one row's values (``points`` instead of its own, if given)."""
        checked = row if points is None else SheetRow(row.game, row.kind, row.soloist, points)
        if row.kind is Kind.PENALTY:
            return _check_penalty(profile, table_size, checked, by_number, steps, nominal)
        return _check_game(profile, table_size, checked, sitters[id(row)])

    per_row = [check_row(row) for row in rows]
    if running_totals and profile.scoring is Scoring.PLUS_MINUS:
        per_row = _wrong_totals(rows, per_row, check_row)
    findings += [finding for found in per_row for finding in found]
    findings += _check_ledger(profile, games, steps)
    if marked_limit is not None:
        findings += [
            Finding(ERROR, "after-time-limit", game.game)
            for game, step in zip(games, steps, strict=False)
            if game.game >= marked_limit
            and step.vorfuehren is None
            and game.kind is not Kind.VORGEFUEHRT
        ]
    findings += _check_count(profile, games, nominal, complete, steps)
    return sorted(findings, key=lambda f: (f.game, f.level != ERROR, f.code))


def _wrong_totals(
    rows: Sequence[SheetRow],
    per_row: list[list[Finding]],
    check_row: Callable[[SheetRow, tuple[int, ...]], list[Finding]],
) -> list[list[Finding]]:
    """One running total written wrong by d shows, after differencing, as a game row that
    adds up to d and a later row (the first where the total is right again: a game, or a
    penalty line among the games) that adds up to -d, with every row between them in order.
    When moving d within exactly one column makes both rows right, the two rows' findings
    become one: that cell is wrong."""
    result = list(per_row)
    # Penalty rows count towards the totals where they stand among the games (a paper list
    # or its file); after the last game (as the desk lists them) they are not in the totals.
    last_game = max((i for i, r in enumerate(rows) if r.kind.is_game), default=-1)
    index = 0
    while index < len(rows):
        row = rows[index]
        amount = sum(row.points)
        fix = None
        if row.kind.is_game and amount and has_errors(result[index]):
            fix = _matching_row(rows[: last_game + 1], result, index, amount, check_row)
        if fix is None:
            index += 1
            continue
        end, position, first, last = fix
        result[index] = [
            Finding(
                ERROR,
                "running-total-high" if amount > 0 else "running-total-low",
                row.game,
                {
                    "game": row.game,
                    "position": position + 1,
                    "amount": abs(amount),
                    "last": rows[end - 1].game,
                    # The first game whose total is right again (after a penalty line that
                    # already is: the game it belongs to is the next one to have a total).
                    "next": next(r.game for r in rows[end:] if r.kind.is_game),
                },
            ),
            *[f for f in first if f.level != ERROR],
        ]
        result[end] = last
        index = end + 1
    return result


def _matching_row(
    rows: Sequence[SheetRow],
    found: list[list[Finding]],
    index: int,
    amount: int,
    check_row: Callable[[SheetRow, tuple[int, ...]], list[Finding]],
) -> tuple[int, int, list[Finding], list[Finding]] | None:
    """(the row where the total is right again, the wrong column, the findings of both rows
    once corrected) or None: no later row adds up to -amount after clean rows, or not
    exactly one column explains both."""
    row = rows[index]
    for end in range(index + 1, len(rows)):
        other = rows[end]
        if sum(other.points) == -amount:
            break
        if has_errors(found[end]):
            return None
    else:
        return None
    if len(other.points) != len(row.points):
        return None
    fixes = []
    for position in range(len(row.points)):
        first = check_row(row, _moved(row.points, position, -amount))
        last = check_row(other, _moved(other.points, position, amount))
        if not has_errors(first) and not has_errors(last):
            fixes.append((end, position, first, last))
    return fixes[0] if len(fixes) == 1 else None


def _moved(points: tuple[int, ...], position: int, amount: int) -> tuple[int, ...]:
    return tuple(v + amount if i == position else v for i, v in enumerate(points))


def has_errors(findings: Iterable[Finding]) -> bool:
    return any(f.level == ERROR for f in findings)


def _check_numbering(games: Sequence[SheetRow]) -> list[Finding]:
    return [
        Finding(ERROR, "game-number", row.game, {"expected": expected})
        for expected, row in enumerate(games, start=1)
        if row.game != expected
    ]


def _tail_start(games: Sequence[SheetRow]) -> int | None:
    start = None
    for row in reversed(games):
        if row.kind is not Kind.VORGEFUEHRT:
            break
        start = row.game
    return start


def _parity_broken(profile: RuleProfile, table_size: int, points: Sequence[int]) -> bool:
    """TSR 7.3.3 (2): at a 4-table all values are even or all are odd."""
    return (
        profile.scoring is Scoring.PLUS_MINUS
        and table_size == 4
        and profile.even_odd_rule_4
        and len({v % 2 for v in points}) > 1
    )


def _normal_value(points: Sequence[int], plus_points: bool) -> int | None:
    """v when the four values are +v, +v, -v, -v (plus points: a, a, b, b with a, b >= 0)."""
    values = sorted(points)
    if len(values) != 4:
        return None
    if plus_points:
        low, high = values[0], values[3]
        ok = values[0] == values[1] and values[2] == values[3] and low >= 0
        return high if ok else None
    if values[0] == values[1] == -values[2] == -values[3]:
        return values[3]
    return None


def _solo_value(points: dict[int, int], soloist: int, plus_points: bool) -> int | None:
    """v when the soloist has 3v and each opponent -v (plus points: won 3v/0, lost 0/v)."""
    others = [v for p, v in points.items() if p != soloist]
    own = points[soloist]
    if len(others) != 3 or len(set(others)) != 1:
        return None
    if plus_points:
        if own % 3 == 0 and own >= 0 and others[0] == 0:
            return own // 3
        return others[0] if own == 0 and others[0] >= 0 else None
    return abs(others[0]) if own == -3 * others[0] else None


def _check_game(
    profile: RuleProfile, table_size: int, row: SheetRow, sitter: int | None
) -> list[Finding]:
    findings = []
    plus_minus = profile.scoring is Scoring.PLUS_MINUS
    number = row.game
    if len(row.points) != table_size:
        return [Finding(ERROR, "pattern", number, {"reason": "width"})]
    if row.kind.is_solo:
        penalty = solo_penalty_in_game_row(row.points, row.soloist)
        if penalty is not None and penalty[0] != sitter:
            # A referee's TSR 9.4.4 result in the solo's own row: say how to enter it,
            # rather than that it breaks the even/odd rule or fits no solo.
            offender, amount = penalty
            params = {"offender": offender, "amount": amount, "soloist": row.soloist}
            return [Finding(ERROR, "solo-penalty-in-row", number, params)]
    total = sum(row.points)
    if plus_minus and total != 0:
        findings.append(Finding(ERROR, "zero-sum", number, {"sum": total}))
    if _parity_broken(profile, table_size, row.points):
        findings.append(Finding(ERROR, "even-odd", number))
    active = {p: v for p, v in enumerate(row.points, start=1) if p != sitter}
    if sitter is not None and row.points[sitter - 1] != 0:
        findings.append(
            Finding(
                ERROR,
                "sitter-nonzero",
                number,
                {"position": sitter, "value": row.points[sitter - 1]},
            )
        )
    value = None
    if row.kind.is_solo:
        if row.soloist is None or not 1 <= row.soloist <= table_size:
            findings.append(Finding(ERROR, "soloist-missing", number))
            return findings
        if row.soloist == sitter:
            findings.append(Finding(ERROR, "soloist-sits", number, {"position": row.soloist}))
            return findings
        value = _solo_value(active, row.soloist, not plus_minus)
        limit = profile.max_plausible_solo
    else:
        value = _normal_value(list(active.values()), not plus_minus)
        limit = profile.max_plausible_normal
    if value is None:
        if not findings:
            findings.append(_pattern(row, active, plus_minus))
    elif value > limit:
        findings.append(
            Finding(WARNING, "value-implausible", number, {"value": value, "limit": limit})
        )
    return findings


def _pattern(row: SheetRow, active: dict[int, int], plus_minus: bool) -> Finding:
    """Values that fit no game of the row's kind: the finding names the shape that would
    fit (``shape``: normal game or solo, plus-minus or plus points), the soloist, and what
    the values are instead if they are another kind of game (``fits``: "normal" or
    ``fits_soloist``, the position whose solo they are)."""
    solo = row.kind.is_solo
    shape = ("solo" if solo else "normal") + ("" if plus_minus else "-plus-points")
    params: dict[str, Any] = {"kind": str(row.kind), "shape": shape}
    if solo:
        params["soloist"] = row.soloist
        if _normal_value(list(active.values()), not plus_minus) is not None:
            params["fits"] = "normal"
    soloists = [
        p for p in active if p != row.soloist and _solo_value(active, p, not plus_minus) is not None
    ]
    if len(soloists) == 1 and "fits" not in params:
        params["fits"], params["fits_soloist"] = "solo", soloists[0]
    return Finding(ERROR, "pattern", row.game, params)


def _check_ledger(
    profile: RuleProfile, games: Sequence[SheetRow], steps: Sequence[LedgerStep]
) -> list[Finding]:
    findings = []
    required = profile.pflichtsoli_per_round
    played: dict[int, int] = {}
    flagged_forced = False
    for row, step in zip(games, steps, strict=False):
        soloist = row.soloist
        if step.vorfuehren is not None:
            done = row.kind is Kind.VORGEFUEHRT and soloist == step.vorfuehren
            if not done and not (step.vorfuehren_forced and flagged_forced):
                findings.append(
                    Finding(
                        ERROR,
                        "vorfuehren-missed",
                        row.game,
                        {"position": step.vorfuehren, "dealer": step.dealer},
                    )
                )
                flagged_forced = flagged_forced or step.vorfuehren_forced
        elif row.kind is Kind.VORGEFUEHRT:
            findings.append(Finding(ERROR, "vorfuehren-not-due", row.game))
        if soloist is None:
            continue
        if row.kind.is_pflichtsolo:
            if played.get(soloist, 0) >= required:
                findings.append(
                    Finding(ERROR, "pflichtsolo-twice", row.game, {"position": soloist})
                )
            played[soloist] = played.get(soloist, 0) + 1
        elif (
            row.kind is Kind.LUSTSOLO
            and profile.lustsolo_only_after_pflichtsolo
            and played.get(soloist, 0) < required
        ):
            findings.append(
                Finding(ERROR, "lustsolo-before-pflichtsolo", row.game, {"position": soloist})
            )
    return findings


def _check_penalty(
    profile: RuleProfile,
    table_size: int,
    row: SheetRow,
    by_number: dict[int, tuple[SheetRow, LedgerStep]],
    steps: Sequence[LedgerStep],
    nominal: int,
) -> list[Finding]:
    number = row.game
    if len(row.points) != table_size:
        return [Finding(ERROR, "penalty-pattern", number, {"reason": "width"})]
    game_and_step = by_number.get(number)
    if game_and_step is not None:
        # The game on the list decides who the soloist is: a normal game has none. A solo
        # takes either scale: the normal one until the solo was clear (TSR 9.3.3), and for a
        # game that was stopped and dealt again (9.4.3), whatever the new deal became.
        game, step = game_and_step
        soloist = game.soloist if game.kind.is_solo else None
    elif number == len(steps) and len(by_number) < nominal:
        # Given in the game being played next (e.g. one that was stopped, TSR 9.4.3).
        step, soloist = steps[-1], row.soloist
    else:
        return [Finding(ERROR, "penalty-game-unknown", number)]
    sitter = step.sitter
    points = tuple(row.points)
    if points in legal_rows(profile, table_size, sitter, soloist):
        return []
    if is_deduction(points):
        # TSR 9.7.2 b: one player loses up to max_deduction points, nobody is credited.
        if UnsportsmanlikeSanction.DEDUCTION not in profile.sanctions:
            return [Finding(ERROR, "penalty-no-deduction", number, {"profile": profile.key})]
        if -min(points) > profile.max_deduction:
            maximum = profile.max_deduction
            params = {"maximum": maximum, "profile": profile.key}
            return [Finding(ERROR, "penalty-deduction-too-high", number, params)]
    other_game = _fitting_game(profile, table_size, points, sitter, soloist)
    if other_game is not None:
        return [Finding(ERROR, other_game[0], number, {"game": number, **other_game[1]})]
    findings = []
    if sum(points) != 0:
        findings.append(Finding(ERROR, "penalty-zero-sum", number, {"sum": sum(points)}))
    if _parity_broken(profile, table_size, points) and not parity_exception(points, soloist):
        findings.append(Finding(ERROR, "penalty-even-odd", number, {"credits": ODD_SOLO_CREDITS}))
    if sitter is not None and points[sitter - 1] != 0:
        findings.append(Finding(ERROR, "penalty-sitter-nonzero", number, {"position": sitter}))
    if not findings:
        findings.append(Finding(ERROR, "penalty-pattern", number))
    return findings


def _fitting_game(
    profile: RuleProfile,
    table_size: int,
    points: tuple[int, ...],
    sitter: int | None,
    soloist: int | None,
) -> tuple[str, dict[str, Any]] | None:
    """A penalty row that is legal for another game than the list has: a solo (of another
    soloist), or at a 5-table another dealer. (The code of the finding, its parameters.)"""
    options = [None, *range(1, table_size + 1)]
    for other in options:
        if other not in (soloist, sitter) and points in legal_rows(
            profile, table_size, sitter, other
        ):
            # (A solo's rows include the normal-game ones: other is never None here.)
            if soloist is None:
                return "penalty-fits-solo", {"fits": other}
            return "penalty-fits-other-soloist", {"fits": other, "soloist": soloist}
    if sitter is not None:
        for dealer in range(1, table_size + 1):
            for other in options:
                if dealer != sitter and points in legal_rows(profile, table_size, dealer, other):
                    return "penalty-fits-other-dealer", {"fits": dealer, "dealer": sitter}
    return None


def _check_count(
    profile: RuleProfile,
    games: Sequence[SheetRow],
    nominal: int,
    complete: bool,
    steps: Sequence[LedgerStep],
) -> list[Finding]:
    findings = []
    if len(games) > nominal:
        findings.append(
            Finding(
                ERROR,
                "too-many-games",
                games[nominal].game,
                {"count": len(games), "nominal": nominal},
            )
        )
    last = games[-1].game if games else 0
    if complete:
        if len(games) < nominal:
            findings.append(
                Finding(WARNING, "too-few-games", last, {"count": len(games), "nominal": nominal})
            )
        if profile.pflichtsoli_per_round:
            for position in steps[-1].owing_before:
                findings.append(Finding(ERROR, "pflichtsolo-missing", last, {"position": position}))
    return findings
