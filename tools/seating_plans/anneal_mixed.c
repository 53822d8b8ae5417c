/* Simulated annealing for fair plans of mixed fields (four- and five-tables): the generator
   behind some of the stored plans in tournament/seating/mixed.py, run by
   `python -m tools.seating_plans.make_mixed --anneal FIELD` (built by `make plans`).

   usage: anneal_mixed N R SEED ITERATIONS TEMPERATURE
   Prints the best fair plan found (R lines of N players, five-tables first, then
   four-tables; consecutive players form a table) after a line with its repeat count.

   A move swaps two players of different tables in one round (70 % of the time one of them
   is drawn among the players in a repeat). The cost is the repeats plus the players outside
   the fair range of five-table seats; the start shares the five-table seats fairly. Only
   fair plans are kept as the best. The search stops after ITERATIONS moves or at 0 repeats;
   everything depends on SEED and ITERATIONS only (xorshift64), never on the clock. */
#include <math.h>

#include "mixed_plan.h"

static double uniform(void) { return (next() >> 11) * (1.0 / 9007199254740992.0); }

/* The change of the repeats at table t of round r if `leaving` gives its seat to `coming`. */
static int side_change(int r, int t, int leaving, int coming) {
  int d = 0;
  for (int a = 0; a < size[t]; a++) {
    int x = tab[r][t][a];
    if (x == leaving) continue;
    if (met[leaving][x] >= 2) d--;
    if (met[coming][x] >= 1) d++;
  }
  return d;
}

/* The change of the repeats if p and q (round r, different tables) swap places. */
static int repeats_change(int r, int p, int q) {
  return side_change(r, where[r][p], p, q) + side_change(r, where[r][q], q, p);
}

static int unfair_change(int r, int p, int q) {
  int at_five_a = where[r][p] < m, at_five_b = where[r][q] < m;
  if (at_five_a == at_five_b) return 0;
  int d = at_five_b - at_five_a; /* p's five-table seats change by d, q's by -d */
  return outside(fives[p] + d) - outside(fives[p]) + outside(fives[q] - d) - outside(fives[q]);
}

int main(int argc, char **argv) {
  if (argc != 6) {
    fprintf(stderr, "usage: anneal_mixed N R SEED ITERATIONS TEMPERATURE\n");
    return 2;
  }
  N = atoi(argv[1]); R = atoi(argv[2]);
  unsigned long long seed = strtoull(argv[3], NULL, 10);
  long long iterations = atoll(argv[4]);
  double temperature = atof(argv[5]);
  if (N < 5 || N > MAXN || R < 1 || R > MAXR || N % 4 == 0) {
    fprintf(stderr, "a mixed field of at most %d players and %d rounds\n", MAXN, MAXR);
    return 2;
  }
  set_up(seed);
  /* A fair start: the five-table seats go round the players in a shuffled order. */
  int order[MAXN];
  for (int i = 0; i < N; i++) order[i] = i;
  for (int i = N - 1; i > 0; i--) { int j = below(i + 1), t = order[i]; order[i] = order[j]; order[j] = t; }
  int next_five = 0;
  for (int r = 0; r < R; r++) {
    int used[MAXN] = {0}, row[MAXN], k = 0, rest[MAXN], others = 0;
    for (int s = 0; s < 5 * m; s++) { int p = order[next_five++ % N]; used[p] = 1; row[k++] = p; }
    for (int p = 0; p < N; p++) if (!used[p]) rest[others++] = p;
    for (int i = others - 1; i > 0; i--) { int j = below(i + 1), t = rest[i]; rest[i] = rest[j]; rest[j] = t; }
    for (int i = 0; i < others; i++) row[k++] = rest[i];
    k = 0;
    for (int t = 0; t < T; t++) for (int a = 0; a < size[t]; a++) tab[r][t][a] = row[k++];
  }
  count_all();
  for (long long it = 0; it < iterations;) {
    it++;
    int r = below(R), p = -1;
    if (repeats > 0 && uniform() < 0.7)
      for (int k = 0; k < 40; k++) {
        int rr = below(R), pp = below(N);
        if (in_a_repeat(rr, pp)) { r = rr; p = pp; break; }
      }
    if (p < 0) p = below(N);
    int q;
    do q = below(N); while (where[r][q] == where[r][p]);
    double change = repeats_change(r, p, q) + unfair_change(r, p, q);
    if (change <= 0 || uniform() < exp(-change / temperature)) {
      swap_players(r, p, q);
      keep_if_best(it);
      if (best_repeats == 0) break;
    }
  }
  print_best();
  return 0;
}
