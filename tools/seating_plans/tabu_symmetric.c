/* Tabu search for fair plans of mixed fields that a symmetry maps onto itself: the generator
   behind the SEARCHED plans in tournament/seating/mixed.py, run by
   `python -m tools.seating_plans.make_symmetric FIELD` (built by `make plans`).

   usage: tabu_symmetric N R ORDER FIXED SEED MOVES KEPT...
   The symmetry s has the prime order ORDER: the players ORDER*i, ..., ORDER*i + ORDER - 1
   go round in a cycle, the last FIXED players stay where they are. The first rounds come
   in groups of ORDER: a base round, then its images under s, s^2, ... Each KEPT argument is
   one of the last rounds, which s maps onto itself, given by its tables (five-tables
   first), comma-separated:
     cS      ORDER tables of S players that s turns round: S cycles give each a player;
     fS.A.B  one table of S = A*ORDER + B players that s keeps: A whole cycles, B fixed players.
   Prints the best fair plan found (R lines of N players, five-tables first, then
   four-tables; consecutive players form a table) after a line with its repeat count.

   Every move keeps the plan symmetric. In a group of rounds it swaps two players p and q of
   the base round and s^j(p) and s^j(q) in its image j; in a kept round it swaps s^j(p) and
   s^j(q) for every j (p and q in different cycles, or both fixed). Each step makes the best
   move that involves a player in a repeat (or, while some are, one outside the fair range of
   five-table seats), counting repeats plus twice the seats outside that range; a move stays
   forbidden for 3-15 steps (unless it gives a fair plan with fewer repeats than the best),
   and after 500 steps without a lower cost six random moves shake the plan. The search stops
   after MOVES steps or at 0 repeats; everything depends on SEED and MOVES only (xorshift64,
   integer arithmetic), never on the clock. */
#include "mixed_plan.h"

#define STALL 500
#define SHAKES 6
#define UNFAIR_WEIGHT 2

static int order, cyclic; /* the symmetry's order; the players in its cycles come first */
static int image[MAXN], first[MAXR], length[MAXR]; /* s(p); each round's group */
static long long forbidden[MAXR][MAXN][MAXN];

static int turns(int p) { return p < cyclic ? order : 1; } /* the length of p's cycle */
static int cost(void) { return repeats + UNFAIR_WEIGHT * unfair; }

/* A move with p in round r's group touches s^j(p) in round at(r, j) for j < reach(r, p):
   in a group, once in each of its rounds; in a kept round, p's whole cycle. */
static int reach(int r, int p) { return length[r] > 1 ? length[r] : turns(p); }
static int at(int r, int j) { return length[r] > 1 ? first[r] + j : r; }

/* The symmetric move (p, q) in the rounds of round r's group; it is its own inverse. */
static void move(int r, int p, int q) {
  for (int j = 0, count = reach(r, p); j < count; j++, p = image[p], q = image[q])
    swap_players(at(r, j), p, q);
}

/* May p and q swap in a kept round? Both in cycles (different ones) or both fixed. */
static int kept_pair(int p, int q) {
  if (p == q || (p < cyclic) != (q < cyclic)) return 0;
  return p >= cyclic || p / order != q / order;
}

/* Does a move with p touch a repeat: p's images in the group's rounds, or p's cycle in a
   kept round? */
static int in_conflict(int r, int p) {
  for (int j = 0, count = reach(r, p); j < count; j++, p = image[p])
    if (in_a_repeat(at(r, j), p)) return 1;
  return 0;
}

static void shuffle(int *items, int count) {
  for (int i = count - 1; i > 0; i--) { int j = below(i + 1), t = items[i]; items[i] = items[j]; items[j] = t; }
}

/* A kept round from its tables (see the usage): 0 if they do not fit the field. */
static int kept_round(int r, const char *spec) {
  int cycles[MAXN], stay[MAXN], fixed = N - cyclic, used_cycles = 0, used_fixed = 0, t = 0;
  for (int i = 0; i < cyclic / order; i++) cycles[i] = i;
  for (int i = 0; i < fixed; i++) stay[i] = cyclic + i;
  shuffle(cycles, cyclic / order);
  shuffle(stay, fixed);
  char text[256];
  snprintf(text, sizeof text, "%s", spec);
  for (char *table = strtok(text, ","); table; table = strtok(NULL, ",")) {
    int s, whole, alone;
    if (table[0] == 'c' && sscanf(table + 1, "%d", &s) == 1) {
      if (t + order > T || used_cycles + s > cyclic / order) return 0;
      for (int j = 0; j < order; j++) if (size[t + j] != s) return 0;
      for (int i = 0; i < s; i++) {
        int c = cycles[used_cycles++], turn = below(order);
        for (int j = 0; j < order; j++) tab[r][t + j][i] = c * order + (j + turn) % order;
      }
      t += order;
    } else if (table[0] == 'f' && sscanf(table + 1, "%d.%d.%d", &s, &whole, &alone) == 3) {
      if (t >= T || size[t] != s || whole * order + alone != s) return 0;
      if (used_cycles + whole > cyclic / order || used_fixed + alone > fixed) return 0;
      int i = 0;
      for (int w = 0; w < whole; w++) {
        int c = cycles[used_cycles++];
        for (int j = 0; j < order; j++) tab[r][t][i++] = c * order + j;
      }
      for (int a = 0; a < alone; a++) tab[r][t][i++] = stay[used_fixed++];
      t++;
    } else {
      return 0;
    }
  }
  return t == T && used_cycles == cyclic / order && used_fixed == fixed;
}

int main(int argc, char **argv) {
  if (argc < 7) {
    fprintf(stderr, "usage: tabu_symmetric N R ORDER FIXED SEED MOVES KEPT...\n");
    return 2;
  }
  N = atoi(argv[1]); R = atoi(argv[2]); order = atoi(argv[3]);
  int fixed = atoi(argv[4]), kept = argc - 7;
  unsigned long long seed = strtoull(argv[5], NULL, 10);
  long long moves = atoll(argv[6]);
  cyclic = N - fixed;
  if (N < 5 || N > MAXN || R < 1 || R > MAXR || N % 4 == 0 || order < 2 || fixed < 0
      || cyclic % order || (R - kept) % order || kept > R) {
    fprintf(stderr, "the shape does not fit a mixed field of at most %d players and %d rounds\n", MAXN, MAXR);
    return 2;
  }
  set_up(seed);
  for (int p = 0; p < N; p++) image[p] = p < cyclic ? p - p % order + (p + 1) % order : p;
  int groups = (R - kept) / order;
  for (int g = 0; g < groups; g++) { /* a random base round and its images */
    int row[MAXN];
    for (int i = 0; i < N; i++) row[i] = i;
    shuffle(row, N);
    for (int j = 0; j < order; j++) {
      int r = g * order + j, k = 0;
      first[r] = g * order; length[r] = order;
      for (int t = 0; t < T; t++) for (int a = 0; a < size[t]; a++) tab[r][t][a] = row[k++];
      for (int i = 0; i < N; i++) row[i] = image[row[i]];
    }
  }
  for (int k = 0; k < kept; k++) {
    int r = groups * order + k;
    first[r] = r; length[r] = 1;
    if (!kept_round(r, argv[7 + k])) {
      fprintf(stderr, "the kept round %s does not fit the field\n", argv[7 + k]);
      return 2;
    }
  }
  count_all();
  long long last_drop = 0;
  int level = cost();
  for (long long step = 1; step <= moves; step++) {
    int start = cost(), chosen = 1 << 30, br = -1, bp = -1, bq = -1, ties = 0;
    for (int r = 0; r < R; r++) {
      if (first[r] != r) continue;
      for (int p = 0; p < N; p++) {
        if (length[r] == 1 && p < cyclic && p % order) continue; /* one player per cycle */
        if (!in_conflict(r, p) && !(unfair && outside(fives[p]))) continue;
        for (int q = 0; q < N; q++) {
          if (q == p || where[r][q] == where[r][p] || (length[r] == 1 && !kept_pair(p, q))) continue;
          move(r, p, q);
          int change = cost() - start, better = unfair == 0 && repeats < best_repeats;
          move(r, p, q);
          if (forbidden[r][p < q ? p : q][p < q ? q : p] > step && !better) continue;
          if (change < chosen) { chosen = change; br = r; bp = p; bq = q; ties = 1; }
          else if (change == chosen && below(++ties) == 0) { br = r; bp = p; bq = q; }
        }
      }
    }
    if (br < 0) continue;
    move(br, bp, bq);
    int a = bp, b = bq;
    for (int j = length[br] > 1 ? 1 : turns(bp); j > 0; j--, a = image[a], b = image[b])
      forbidden[br][a < b ? a : b][a < b ? b : a] = step + 3 + below(13);
    keep_if_best(step);
    if (best_repeats == 0) break;
    if (cost() < level) { level = cost(); last_drop = step; }
    if (step - last_drop > STALL) {
      for (int k = 0; k < SHAKES; k++) {
        int r = first[below(R)], p = below(N), q = below(N);
        if (p != q && where[r][p] != where[r][q] && (length[r] > 1 || kept_pair(p, q))) move(r, p, q);
      }
      last_drop = step;
      level = cost();
    }
  }
  print_best();
  return 0;
}
