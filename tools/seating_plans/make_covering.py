"""Find the 24-player covering plan and write tournament/seating/covering.py.

    pip install ortools && python -m tools.seating_plans.make_covering

24 players in 8 rounds at tables of four meet in 288 pair slots for 276 pairs, so at least
12 pairs meet twice (the lower bound). This finds 8 rounds reaching it: every pair meets,
12 "twin" pairs (a perfect matching) meet twice.

Structure: points 6i + a (orbit i in 0..3, a in Z6); g: a -> a+1 inside every orbit. Twins
(a, 6+a) and (12+a, 18+a). Z6 acts on the rounds with orbits 3+3+1+1: two base rounds
invariant under g^3 (each gives R, gR, g^2R) and two rounds invariant under all of Z6. Each
pair orbit must be covered exactly once (twins: twice) and each base round must partition
its stabiliser's point orbits: an exact cover with 82 columns and 9688 rows, which CP-SAT
(one worker, seed 0: deterministic) solves in about 20 s. The rounds are written with the
five repeat-free ones first. ortools is needed here only, not by the site.
"""

import itertools
import sys
import time
from collections import Counter
from pathlib import Path

from ortools.sat.python import cp_model

N = 24

Perm = tuple[int, ...]  # a permutation of the points: p maps x to p[x]
Pair = tuple[int, int]
Rounds = list[list[list[int]]]


def compose(p: Perm, q: Perm) -> Perm:
    return tuple(p[q[i]] for i in range(N))


def closure(gens: list[Perm]) -> list[Perm]:
    e = tuple(range(N))
    G = {e}
    fr = [e]
    while fr:
        nf: list[Perm] = []
        for x in fr:
            for h in gens:
                k = compose(h, x)
                if k not in G:
                    G.add(k)
                    nf.append(k)
        fr = nf
    return sorted(G)


def power(g: Perm, k: int) -> Perm:
    r = tuple(range(N))
    for _ in range(k):
        r = compose(g, r)
    return r


def cosets(G: list[Perm], H: list[Perm]) -> list[Perm]:
    reps: list[Perm] = []
    seen: set[Perm] = set()
    for g in G:
        if g in seen:
            continue
        reps.append(g)
        for h in H:
            seen.add(compose(g, h))
    return reps


g = tuple(6 * (p // 6) + (p % 6 + 1) % 6 for p in range(N))
GENS = [g]
STABS = [[power(g, 3)], [power(g, 3)], [g], [g]]  # round orbits 3+3+1+1
TWINS = [(a, 6 + a) for a in range(6)] + [(12 + a, 18 + a) for a in range(6)]


def build() -> tuple[
    list[Perm], dict[tuple[str | int, ...], int], list[list[int]], list[tuple[int, tuple[int, ...]]]
]:
    G = closure(GENS)
    orb: dict[tuple[int, ...], int] = {}
    osize: list[int] = []
    for x, y in itertools.combinations(range(N), 2):
        if (x, y) in orb:
            continue
        s: set[tuple[int, ...]] = set()
        for h in G:
            s.add(tuple(sorted((h[x], h[y]))))
        for p in s:
            orb[p] = len(osize)
        osize.append(len(s))
    need = [1] * len(osize)
    for p in TWINS:
        need[orb[tuple(sorted(p))]] = 2
    col: dict[tuple[str | int, ...], int] = {}

    def C(key: tuple[str | int, ...]) -> int:
        if key not in col:
            col[key] = len(col)
        return col[key]

    for o in range(len(osize)):
        for c in range(need[o]):
            C(("o", o, c))
    rows: list[list[int]] = []
    meta: list[tuple[int, tuple[int, ...]]] = []
    for r, sg in enumerate(STABS):
        H = closure(sg)
        idx = len(G) // len(H)
        porb: dict[int, int] = {}
        for x in range(N):
            if x not in porb:
                for h in H:
                    porb[h[x]] = x
        for x in set(porb.values()):
            C(("p", r, x))
        seen: set[frozenset[int]] = set()
        for B in itertools.combinations(range(N), 4):
            if frozenset(B) in seen:
                continue
            borb = {frozenset(h[x] for x in B) for h in H}
            seen |= borb
            pts = [x for b in borb for x in b]
            if len(pts) != len(set(pts)):
                continue  # translates must be disjoint
            cnt: dict[int, int] = {}
            for b in borb:
                for x, y in itertools.combinations(sorted(b), 2):
                    o = orb[(x, y)]
                    cnt[o] = cnt.get(o, 0) + 1
            contrib: dict[int, int] = {}
            ok = True
            for o, c in cnt.items():  # count each pair of orbit o receives
                v = idx * c
                if v % osize[o] or v // osize[o] > need[o]:
                    ok = False
                    break
                contrib[o] = v // osize[o]
            if not ok:
                continue
            pcols = sorted({C(("p", r, porb[x])) for x in pts})
            choices: list[list[list[int]]] = []
            for o, v in contrib.items():
                if need[o] == 1:
                    choices.append([[col[("o", o, 0)]]])
                elif v == 2:
                    choices.append([[col[("o", o, 0)], col[("o", o, 1)]]])
                else:
                    choices.append([[col[("o", o, 0)]], [col[("o", o, 1)]]])
            for ch in itertools.product(*choices):
                rows.append(pcols + [c for cc in ch for c in cc])
                meta.append((r, B))
    return G, col, rows, meta


def expand(G: list[Perm], sel: list[tuple[int, tuple[int, ...]]]) -> Rounds:
    rounds: Rounds = []
    for r, sg in enumerate(STABS):
        H = closure(sg)
        blocks: set[frozenset[int]] = set()
        for rr, B in sel:
            if rr == r:
                for h in H:
                    blocks.add(frozenset(h[x] for x in B))
        for gg in cosets(G, H):
            rounds.append(sorted(sorted(gg[x] for x in b) for b in blocks))
    return rounds


def verify(rounds: Rounds) -> list[Pair]:
    assert len(rounds) == 8
    c: Counter[Pair] = Counter()
    for rd in rounds:
        assert len(rd) == 6 and all(len(b) == 4 for b in rd)
        assert sorted(x for b in rd for x in b) == list(range(N))
        for b in rd:
            for p in itertools.combinations(sorted(b), 2):
                c[p] += 1
    allp = list(itertools.combinations(range(N), 2))
    two = [p for p in allp if c[p] == 2]
    assert all(1 <= c[p] <= 2 for p in allp)
    assert len(two) == 12 and sorted(x for p in two for x in p) == list(range(N))
    return two


def solve() -> Rounds:
    started = time.time()
    group, col, rows, meta = build()
    model = cp_model.CpModel()
    chosen = [model.NewBoolVar("") for _ in rows]
    by_column: list[list[cp_model.IntVar]] = [[] for _ in col]
    for i, row in enumerate(rows):
        for c in row:
            by_column[c].append(chosen[i])
    for variables in by_column:
        model.AddExactlyOne(variables)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = 0
    solver.parameters.max_time_in_seconds = 600
    status = solver.Solve(model)
    print(f"{len(col)} columns, {len(rows)} rows: {solver.StatusName(status)}, "
          f"{time.time() - started:.1f} s")  # fmt: skip
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise SystemExit("no plan found")
    return expand(group, [meta[i] for i in range(len(rows)) if solver.Value(chosen[i])])


def repeat_free_first(rounds: Rounds, twins: list[Pair]) -> Rounds:
    """The rounds without a twin pair first: the first five are repeat-free."""
    twin_set = {tuple(p) for p in twins}

    def twin_pairs(round_: list[list[int]]) -> int:
        return sum(
            tuple(p) in twin_set for t in round_ for p in itertools.combinations(sorted(t), 2)
        )

    return sorted(rounds, key=twin_pairs)


OUTPUT = Path(__file__).resolve().parents[2] / "tournament" / "seating" / "covering.py"


def write(rounds: Rounds) -> None:
    lines = [
        '"""Stored covering plans: 24 players in 8 rounds with 12 repeats (the lower bound).',
        "",
        "Generated by python -m tools.seating_plans.make_covering -- do not edit by hand.",
        'Every pair meets, twelve pairs twice; the first five rounds are repeat-free."""',
        "",
        "COVERING_PLANS: dict[int, list[list[list[int]]]] = {",
        "    24: [",
    ]
    for round_ in rounds:
        lines.append("        [")
        lines += [f"            {sorted(table)}," for table in round_]
        lines.append("        ],")
    lines += ["    ],", "}", ""]
    OUTPUT.write_text("\n".join(lines))


def main() -> int:
    rounds = solve()
    twins = verify(rounds)
    rounds = repeat_free_first(rounds, twins)
    write(rounds)
    counts: Counter[Pair] = Counter()
    for round_ in rounds:
        for table in round_:
            counts.update(itertools.combinations(sorted(table), 2))
    print(f"{OUTPUT}: {sum(v - 1 for v in counts.values())} repeats, twins {twins}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
