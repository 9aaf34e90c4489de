// int loops whose iteration range ends at INT_MAX: the cyclic thread mapping's step (ntid.x) would
// wrap past INT_MAX after the last iterations, so those threads take contiguous parts with a unit
// step instead (loop mapping's fallback). Every iteration must run exactly once, in a grid of
// blocks (only the last block's range reaches INT_MAX) and in one block (every thread's does),
// with block sizes that are and are not powers of two.
// 2^31 and more iterations would take hours on a PTX interpreter:
// UNSUPPORTED: ptxsim
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t | FileCheck %s
// CHECK: teams: 2048 marks, sum ok, last ok
// CHECK: one team, 128 threads: 2048 marks, sum ok, last ok
// CHECK: one team, 96 threads: 2048 marks, sum ok, last ok
// CHECK: PASS
#include <limits.h>
#include <stdio.h>

#define MARKS 2048 /* one per 2^20 iterations */

static int check(const char *what, const int *mark, long sum, int last) {
  int marks = 0, ok = 1;
  for (int k = 0; k < MARKS; k++) {
    marks += mark[k];
    ok &= mark[k] == 1;
  }
  /* sum of (i & 7) over [0, INT_MAX): 2^28 - 1 full periods of 0..7 (28) plus 0..6 (21) */
  long want = (long)((INT_MAX / 8)) * 28 + 21;
  printf("%s: %d marks, sum %s, last %s\n", what, marks, sum == want ? "ok" : "WRONG", last == INT_MAX - 1 ? "ok" : "WRONG");
  return ok && sum == want && last == INT_MAX - 1;
}

int main(void) {
  static int mark[MARKS];
  int ok = 1, last = -1;
  long sum = 0;
#pragma omp target teams distribute parallel for reduction(+ : sum) map(tofrom : mark, last)
  for (int i = 0; i < INT_MAX; i++) {
    sum += i & 7;
    if ((i & ((1 << 20) - 1)) == 0)
      mark[i >> 20] += 1;
    if (i == INT_MAX - 1)
      last = i;
  }
  ok &= check("teams", mark, sum, last);

  int threads[2] = {128, 96};
  for (int t = 0; t < 2; t++) {
    for (int k = 0; k < MARKS; k++)
      mark[k] = 0;
    sum = 0;
    last = -1;
#pragma omp target parallel for num_threads(threads[t]) reduction(+ : sum) map(tofrom : mark, last)
    for (int i = 0; i < INT_MAX; i++) {
      sum += i & 7;
      if ((i & ((1 << 20) - 1)) == 0)
        mark[i >> 20] += 1;
      if (i == INT_MAX - 1)
        last = i;
    }
    char what[64];
    snprintf(what, sizeof what, "one team, %d threads", threads[t]);
    ok &= check(what, mark, sum, last);
  }

  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
