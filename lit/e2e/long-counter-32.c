// Loops over `long` and `unsigned long` run a 32-bit copy of their thread loop when the bounds
// fit in an int and the 64-bit loop when they do not. The bounds here sit on both sides of
// that line: a range straddling INT_MAX (some blocks take one copy, some the other), an upper
// bound exactly INT_MAX - ntid (the last increment lands on INT_MAX) and one past it, negative
// starts, a step of 3, a reduction, unsigned counters, and a thread loop inside a distribute
// loop. Each result is compared with the serial loop. Clang counts every loop from 0, so what
// must fit is the trip count: with 128 threads, INT_MAX - 127 trips are the most the 32-bit copy
// takes, one more runs the 64-bit loop. (trip-count-64.c covers trip counts past 2^32.)
// 2^31 and more iterations would take hours on a PTX interpreter:
// UNSUPPORTED: ptxsim
// RUN: %ptxcc -fopenmp -O2 %s -o %t -fptxcc-info 2>&1 | FileCheck %s --check-prefix=INFO
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %run %t | FileCheck %s
// INFO: 64-bit counter: 32-bit copy of the loop when its bounds fit in an int
// CHECK: straddle: ok
// CHECK: edge fits: ok
// CHECK: edge past: ok
// CHECK: negative step 3: ok
// CHECK: sum: ok
// CHECK: unsigned: ok
// CHECK: inner: ok
// CHECK: trips INT_MAX - 127: ok
// CHECK: trips INT_MAX - 126: ok
#include <limits.h>
#include <stdio.h>

#define N 4000
static long out[N];

static int check(const char *what, long base, long count, long step) {
  int bad = 0;
  for (long k = 0; k < count; k++) bad += out[k] != base + k * step;
  printf("%s: %s\n", what, bad ? "WRONG" : "ok");
  for (long k = 0; k < N; k++) out[k] = -1;
  return bad != 0;
}

int main(void) {
  int failed = 0;
  for (long k = 0; k < N; k++) out[k] = -1;

  const long base = (long)INT_MAX - 1500;
#pragma omp target teams distribute parallel for num_teams(7) thread_limit(64) map(tofrom : out)
  for (long i = base; i < base + N; i++) out[i - base] = i;
  failed |= check("straddle", base, N, 1);

  // ub = INT_MAX - 128 with 128 threads: the 32-bit loop's last step reaches INT_MAX exactly.
  const long top = (long)INT_MAX - 128;
#pragma omp target parallel for num_threads(128) map(tofrom : out)
  for (long i = top - 999; i <= top; i++) out[i - (top - 999)] = i;
  failed |= check("edge fits", top - 999, 1000, 1);
#pragma omp target parallel for num_threads(128) map(tofrom : out)
  for (long i = top - 998; i <= top + 1; i++) out[i - (top - 998)] = i;
  failed |= check("edge past", top - 998, 1000, 1);

#pragma omp target teams distribute parallel for map(tofrom : out)
  for (long i = -3001; i < 3 * (N - 1001); i += 3) out[(i + 3001) / 3] = i;
  failed |= check("negative step 3", -3001, (3 * (N - 1001) + 3001 + 2) / 3, 3);

  long sum = 0, want = 0;
#pragma omp target teams distribute parallel for reduction(+ : sum)
  for (long i = -100000; i < 3000000; i++) sum += i % 7;
  for (long i = -100000; i < 3000000; i++) want += i % 7;
  printf("sum: %s\n", sum == want ? "ok" : "WRONG");
  failed |= sum != want;

  const unsigned long ubase = (unsigned long)INT_MAX - 2000;
#pragma omp target teams distribute parallel for map(tofrom : out)
  for (unsigned long i = ubase; i < ubase + N; i++) out[i - ubase] = (long)i;
  failed |= check("unsigned", (long)ubase, N, 1);

#pragma omp target teams distribute num_teams(4) map(tofrom : out)
  for (int t = 0; t < 4; t++) {
    const long from = (long)INT_MAX - 2000 + t * 1000;
#pragma omp parallel for
    for (long i = from; i < from + 1000; i++) out[i - ((long)INT_MAX - 2000)] = i;
  }
  failed |= check("inner", (long)INT_MAX - 2000, N, 1);

  // Trip counts on both sides of the 32-bit copy's limit: every 2^20-th iteration marks its
  // slot, the last one records its index, and the sum covers the rest.
  for (long trips = (long)INT_MAX - 127; trips <= (long)INT_MAX - 126; trips++) {
    static int mark[2048];
    for (int k = 0; k < 2048; k++) mark[k] = 0;
    long last = -1, s = 0, w = 0;
#pragma omp target parallel for num_threads(128) reduction(+ : s) map(tofrom : mark, last)
    for (long i = 0; i < trips; i++) {
      s += i & 7;
      if ((i & ((1L << 20) - 1)) == 0) mark[i >> 20] += 1;
      if (i == trips - 1) last = i;
    }
    int bad = last != trips - 1;
    for (int k = 0; k < 2048; k++) bad += mark[k] != 1;
    w = (trips / 8) * 28 + (trips % 8) * (trips % 8 - 1) / 2;
    bad += s != w;
    printf("trips INT_MAX - %ld: %s\n", (long)INT_MAX - trips, bad ? "WRONG" : "ok");
    failed |= bad != 0;
  }
  return failed;
}
