/* What the C searches for mixed fields share (anneal_mixed.c, tabu_symmetric.c): the plan,
   its meeting counts and five-table seats kept up to date move by move, the random
   generator (xorshift64: the same seed gives the same moves everywhere), and the output. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXN 64
#define MAXR 16
#define MAXT 16

/* The field: N players, R rounds, m five-tables first, then four-tables (T in all); a fair
   share of five-table seats is lo..hi. */
static int N, R, m, T, size[MAXT], lo, hi;
/* The plan: the players at each table of each round, and each player's table and seat. */
static int tab[MAXR][MAXT][5], where[MAXR][MAXN], seat[MAXR][MAXN];
static int met[MAXN][MAXN], fives[MAXN];
static int repeats, unfair; /* repeat encounters; five-table seats outside lo..hi */
static int best[MAXR][MAXT][5], best_repeats = 1 << 30;
static unsigned long long state;

static unsigned long long next(void) {
  state ^= state << 13; state ^= state >> 7; state ^= state << 17;
  return state;
}
static int below(int n) { return (int)((next() >> 11) % (unsigned long long)n); }
static int outside(int f) { return f < lo ? lo - f : (f > hi ? f - hi : 0); }

/* The tables of a field of N players for R rounds, and the generator seeded. */
static void set_up(unsigned long long seed) {
  state = seed * 0x9E3779B97F4A7C15ULL + 12345;
  for (int i = 0; i < 10; i++) next();
  m = N % 4; T = m + (N - 5 * m) / 4;
  for (int t = 0; t < T; t++) size[t] = t < m ? 5 : 4;
  lo = (5 * m * R) / N; hi = (5 * m * R + N - 1) / N;
}

static void count_all(void) {
  memset(met, 0, sizeof met);
  memset(fives, 0, sizeof fives);
  for (int r = 0; r < R; r++)
    for (int t = 0; t < T; t++)
      for (int a = 0; a < size[t]; a++) {
        int p = tab[r][t][a];
        where[r][p] = t; seat[r][p] = a;
        if (t < m) fives[p]++;
        for (int b = a + 1; b < size[t]; b++) { int q = tab[r][t][b]; met[p][q]++; met[q][p]++; }
      }
  repeats = 0;
  for (int p = 0; p < N; p++)
    for (int q = p + 1; q < N; q++)
      if (met[p][q] > 1) repeats += met[p][q] - 1;
  unfair = 0;
  for (int p = 0; p < N; p++) unfair += outside(fives[p]);
}

/* `leaving` gives its seat at table t of round r to `coming`: the meeting counts follow. */
static void move_side(int r, int t, int leaving, int coming) {
  for (int a = 0; a < size[t]; a++) {
    int x = tab[r][t][a];
    if (x == leaving) continue;
    if (--met[leaving][x] >= 1) repeats--;
    met[x][leaving]--;
    if (++met[coming][x] >= 2) repeats++;
    met[x][coming]++;
  }
}

/* p and q change places in round r (nothing happens if they share a table). */
static void swap_players(int r, int p, int q) {
  int A = where[r][p], B = where[r][q];
  if (A == B) return;
  int ia = seat[r][p], ib = seat[r][q];
  move_side(r, A, p, q);
  move_side(r, B, q, p);
  int at_five_a = A < m, at_five_b = B < m;
  if (at_five_a != at_five_b) {
    unfair -= outside(fives[p]) + outside(fives[q]);
    fives[p] += at_five_b - at_five_a;
    fives[q] -= at_five_b - at_five_a;
    unfair += outside(fives[p]) + outside(fives[q]);
  }
  tab[r][A][ia] = q; tab[r][B][ib] = p;
  where[r][p] = B; where[r][q] = A; seat[r][p] = ib; seat[r][q] = ia;
}

static int in_a_repeat(int r, int p) {
  int A = where[r][p];
  for (int a = 0; a < size[A]; a++) {
    int x = tab[r][A][a];
    if (x != p && met[p][x] >= 2) return 1;
  }
  return 0;
}

/* Keeps the plan as the best if it is fair with fewer repeats than the best so far. */
static void keep_if_best(long long move) {
  if (unfair == 0 && repeats < best_repeats) {
    best_repeats = repeats;
    memcpy(best, tab, sizeof best);
    fprintf(stderr, "move %lld: %d repeats\n", move, repeats);
  }
}

static void print_best(void) {
  printf("%d\n", best_repeats);
  for (int r = 0; r < R; r++) {
    for (int t = 0; t < T; t++)
      for (int a = 0; a < size[t]; a++) printf("%s%d", t || a ? " " : "", best[r][t][a]);
    printf("\n");
  }
}
