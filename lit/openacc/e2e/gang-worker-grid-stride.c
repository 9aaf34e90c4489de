// A `gang worker` loop whose vector loop runs on the lanes of each worker's warp is one
// grid-stride loop over the workers of the whole grid (block after block, a warp each): every
// row must be processed exactly once whatever the number of gangs and workers, including more
// workers in the grid than rows, a row count that is not a multiple of them, and a reduction
// over the rows.
// REQUIRES: libptxrt
// RUN: %ptxcc -fopenacc -O2 %s -o %t -fptxcc-info 2>&1 | FileCheck %s --check-prefix=INFO
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %run %t | FileCheck %s
// INFO: gang-worker-grid-stride.c:[[@LINE+14]]:1: loop: 'for' iterations → workers of the whole grid (one warp each), cyclically (start ctaid.x * (ntid.x / 32) + tid.x / 32, stride nctaid.x * (ntid.x / 32)): coalesced
// CHECK: rows: 0 wrong
// CHECK: row sum: ok
#include <stdio.h>
enum { R = 1000, C = 77 };
static int a[R][C];

static long pass(int rows, int gangs, int workers) {
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      a[i][j] = 0;
  long total = 0;
  for (int rep = 0; rep < 2; rep++) {
    long s = 0;
#pragma acc parallel loop gang worker num_gangs(gangs) num_workers(workers) vector_length(32) copy(a) reduction(+ : s)
    for (int i = 0; i < rows; i++) {
#pragma acc loop vector reduction(+ : s)
      for (int j = 0; j < C; j++) {
        a[i][j] += i + j;
        s += i + j;
      }
    }
    total += s;
  }
  long wrong = 0;
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      wrong += a[i][j] != (i < rows ? 2 * (i + j) : 0);
  long expect = 0;
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < C; j++)
      expect += 2 * (i + j);
  return wrong + (total != expect) * 1000000L;
}

int main(void) {
  const int rows[] = {0, 1, 3, 31, 1000};
  const int grids[][2] = {{1, 1}, {1, 4}, {3, 2}, {16, 8}, {100, 3}};
  long wrong = 0;
  int sums_ok = 1;
  for (int r = 0; r < 5; r++)
    for (int g = 0; g < 5; g++) {
      long w = pass(rows[r], grids[g][0], grids[g][1]);
      wrong += w % 1000000L;
      sums_ok &= w < 1000000L;
    }
  printf("rows: %ld wrong\nrow sum: %s\n", wrong, sums_ok ? "ok" : "WRONG");
  return 0;
}
