// `teams distribute parallel for` with no schedule clause runs as one grid-stride loop over
// every thread of the grid: each iteration must run exactly once for every trip count (none,
// fewer than a block, not a multiple of the grid, many times the grid), loop type (int,
// unsigned, long), bounds and step, grid and block size, with the directive split in two, with
// `simd`, and `lastprivate` must leave the last iteration's value.
// An explicit dist_schedule(static) keeps one contiguous part per team (OpenMP's rule).
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t | FileCheck %s
// RUN: %ptxcc -fopenmp -O2 -fptxcc-info -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=INFO
// INFO: grid-stride.c:[[#@LINE+28]]:1: loop: 'distribute' iterations → the whole range in every block, dealt to the grid's threads by its 'parallel for' (grid-stride loop)
// INFO: grid-stride.c:[[#@LINE+111]]:1: loop: 'distribute' iterations → blocks of the grid, one contiguous part each
// INFO: grid-stride.c:[[#@LINE+129]]:1: loop: 'distribute' iterations → the whole range in every block, dealt to the grid's threads by its 'parallel for' (grid-stride loop)
// INFO: grid-stride.c:[[#@LINE+141]]:1: loop: 'distribute' iterations → the whole range in every block, dealt to the grid's threads by its 'parallel for' (grid-stride loop)
// CHECK: int loops: 0 wrong
// CHECK: unsigned loops: 0 wrong
// CHECK: long loops: 0 wrong
// CHECK: strided and reversed loops: 0 wrong
// CHECK: split directives: 0 wrong
// CHECK: collapse(2): 0 wrong
// CHECK: dist_schedule(static) contiguous per team: 1
// CHECK: reduction over the grid: 0 wrong
// CHECK: lastprivate: 0 wrong
// CHECK: simd: 0 wrong
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

enum { MAX = 100003 };
static int hits[MAX];

static void clear(void) {
  for (int i = 0; i < MAX; i++)
    hits[i] = 0;
}

static int int_loop(int lo, int n, int teams, int threads) {
  clear();
#pragma omp target teams distribute parallel for num_teams(teams) thread_limit(threads) map(tofrom : hits)
  for (int i = lo; i < n; i++) {
#pragma omp atomic
    hits[i]++;
  }
  int wrong = 0;
  for (int i = 0; i < MAX; i++)
    wrong += hits[i] != (i >= lo && i < n);
  return wrong;
}

static int unsigned_loop(unsigned n, int threads) {
  clear();
#pragma omp target teams distribute parallel for thread_limit(threads) map(tofrom : hits)
  for (unsigned i = 0; i < n; i++) {
#pragma omp atomic
    hits[i]++;
  }
  int wrong = 0;
  for (unsigned i = 0; i < MAX; i++)
    wrong += hits[i] != (i < n);
  return wrong;
}

static int long_loop(long n, int teams) {
  clear();
#pragma omp target teams distribute parallel for num_teams(teams) map(tofrom : hits)
  for (long i = 0; i < n; i++) {
#pragma omp atomic
    hits[i]++;
  }
  int wrong = 0;
  for (long i = 0; i < MAX; i++)
    wrong += hits[i] != (i < n);
  return wrong;
}

static int strided_loops(int n) {
  clear();
#pragma omp target teams distribute parallel for map(tofrom : hits)
  for (int i = 2; i < n; i += 3) {
#pragma omp atomic
    hits[i]++;
  }
#pragma omp target teams distribute parallel for map(tofrom : hits)
  for (int i = n - 1; i >= 0; i -= 2) {
#pragma omp atomic
    hits[i] += 10;
  }
  int wrong = 0;
  for (int i = 0; i < MAX; i++)
    wrong += hits[i] != (i < n) * ((i >= 2 && (i - 2) % 3 == 0) + 10 * ((n - 1 - i) % 2 == 0));
  return wrong;
}

static int split_directives(int n) {
  clear();
#pragma omp target teams num_teams(5) thread_limit(64) map(tofrom : hits)
#pragma omp distribute parallel for
  for (int i = 0; i < n; i++) {
#pragma omp atomic
    hits[i]++;
  }
  int wrong = 0;
  for (int i = 0; i < MAX; i++)
    wrong += hits[i] != (i < n);
  return wrong;
}

static int collapsed(int rows, int cols) {
  clear();
#pragma omp target teams distribute parallel for collapse(2) num_teams(3) thread_limit(96) map(tofrom : hits)
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < cols; c++) {
#pragma omp atomic
      hits[r * cols + c]++;
    }
  int wrong = 0;
  for (int i = 0; i < MAX; i++)
    wrong += hits[i] != (i < rows * cols);
  return wrong;
}

static int contiguous_teams(int n) {
#pragma omp target teams distribute parallel for dist_schedule(static) num_teams(4) thread_limit(32) map(tofrom : hits)
  for (int i = 0; i < n; i++)
    hits[i] = omp_get_team_num();
  int monotone = 1;
  for (int i = 1; i < n; i++)
    monotone &= hits[i] >= hits[i - 1];
  return monotone && hits[n - 1] > hits[0];
}

/* lastprivate of the combined construct: the value of the last iteration, which the thread
 * that runs it leaves in its block's copy and that block copies out. */
static int last_values(void) {
  const int trips[] = {1, 5, 33, 256, 1000, 4103};
  const int grids[][2] = {{1, 32}, {3, 64}, {7, 128}, {64, 32}, {200, 256}};
  int wrong = 0;
  for (int t = 0; t < 6; t++)
    for (int g = 0; g < 5; g++) {
      int n = trips[t], x = -1;
      long y = -1;
#pragma omp target teams distribute parallel for lastprivate(x, y) num_teams(grids[g][0]) thread_limit(grids[g][1]) map(tofrom : x, y)
      for (int i = 0; i < n; i++) {
        x = 3 * i + 1;
        y = (long)i * i;
      }
      wrong += x != 3 * (n - 1) + 1 || y != (long)(n - 1) * (n - 1);
    }
  return wrong;
}

/* simd: its counter's final value is written when the flag says last (to a dead copy here). */
static int simd_loop(int n) {
  clear();
#pragma omp target teams distribute parallel for simd num_teams(9) thread_limit(64) map(tofrom : hits)
  for (int i = 0; i < n; i++)
    hits[i] += i + 1;
  int wrong = 0;
  for (int i = 0; i < MAX; i++)
    wrong += hits[i] != (i < n ? i + 1 : 0);
  return wrong;
}

static int grid_reduction(void) {
  int wrong = 0;
  const int sizes[] = {0, 1, 31, 1000, 65537};
  for (int k = 0; k < 5; k++) {
    long n = sizes[k], s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s) num_teams(7) thread_limit(64)
    for (long i = 0; i < n; i++)
      s += i;
    wrong += s != n * (n - 1) / 2;
  }
  return wrong;
}

int main(void) {
  const int trips[] = {0, 1, 5, 31, 32, 33, 255, 256, 257, 1000, 4103, MAX};
  const int grids[][2] = {{1, 1}, {1, 32}, {2, 33}, {3, 64}, {7, 128}, {64, 256}, {500, 32}};
  int wrong_int = 0, wrong_unsigned = 0, wrong_long = 0;
  for (int t = 0; t < 12; t++) {
    for (int g = 0; g < 7; g++)
      wrong_int += int_loop(0, trips[t], grids[g][0], grids[g][1]);
    wrong_int += int_loop(trips[t] / 3, trips[t], 4, 64);
    wrong_unsigned += unsigned_loop(trips[t], 32 + t);
    wrong_long += long_loop(trips[t], 1 + t);
  }
  printf("int loops: %d wrong\n", wrong_int);
  printf("unsigned loops: %d wrong\n", wrong_unsigned);
  printf("long loops: %d wrong\n", wrong_long);
  printf("strided and reversed loops: %d wrong\n", strided_loops(1000) + strided_loops(7) + strided_loops(MAX));
  printf("split directives: %d wrong\n", split_directives(3) + split_directives(MAX));
  printf("collapse(2): %d wrong\n", collapsed(17, 19) + collapsed(1, 5) + collapsed(300, 333));
  printf("dist_schedule(static) contiguous per team: %d\n", contiguous_teams(10000));
  printf("reduction over the grid: %d wrong\n", grid_reduction());
  printf("lastprivate: %d wrong\n", last_values());
  printf("simd: %d wrong\n", simd_loop(1000) + simd_loop(MAX));
  return 0;
}
