// Parallel regions an if clause serialises (a combined construct's if(c), if(parallel: c),
// 'parallel if(c)' nested in a teams distribute loop, a constant if(parallel: 0)) run on one thread
// when the condition is false and on the block's threads when it is true: the same results either
// way, omp_get_num_threads() is 1 in a serialised region, and the reductions, lastprivate and
// worksharing loops inside one see every iteration once.
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t | FileCheck %s
// RUN: %ptxcc -fopenmp -O0 %s -o %t0
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t0 | FileCheck %s
// The serialised loops (one thread, barriers of team stores in their bodies) get no unroll hint
// the optimiser would have to refuse with a warning.
// RUN: %ptxcc -fopenmp -g -O2 %s -o %tg 2>&1 | FileCheck %s --allow-empty --check-prefix=QUIET
// QUIET-NOT: warning
// CHECK: c=0 s=500500 r=1001000 nth=1 t=499500 rows=800 rs=319600 last=999 nth2=1
// CHECK: c=1 s=500500 r=1001000 nth=many t=499500 rows=800 rs=319600 last=999 nth2=1
// CHECK: PASS
#include <omp.h>
#include <stdio.h>
#define N 1000

static int run(int c) {
  static double a[N];
  double s = 0, r = 0;
  int nth = -1, nth2 = -1, last = -1;
  for (int i = 0; i < N; i++)
    a[i] = i;
  /* if(c) applies to the target and its parallel level alike (c = 0: the host runs it) */
#pragma omp target teams distribute parallel for if(c) reduction(+ : s) map(tofrom : a)
  for (int i = 0; i < N; i++) {
    a[i] += 1;
    s += a[i];
  }
  /* the reduction variable is mapped memory: one thread combines it */
#pragma omp target parallel for if(parallel : c) reduction(+ : r) map(to : a)
  for (int i = 0; i < N; i++)
    r += a[i] * 2;
#pragma omp target parallel if(c) map(tofrom : nth, a)
  {
    if (omp_get_thread_num() == 0)
      nth = omp_get_num_threads();
#pragma omp for
    for (int i = 0; i < N; i++)
      a[i] -= 1;
  }
  int rows[8];
  double rs[8];
#pragma omp target teams distribute map(from : rows, rs) map(to : a) num_teams(4)
  for (int t = 0; t < 8; t++) {
    int cnt = 0;
    double sum = 0;
#pragma omp parallel for if(c) reduction(+ : cnt, sum)
    for (int j = 0; j < 100; j++) {
      cnt++;
      sum += a[t * 100 + j];
    }
    rows[t] = cnt;
    rs[t] = sum;
  }
#pragma omp target teams distribute parallel for if(parallel : 0) lastprivate(last) map(tofrom : last, nth2)
  for (int i = 0; i < N; i++) {
    last = i;
    if (i == 5)
      nth2 = omp_get_num_threads();
  }
  double t = 0, rss = 0;
  int rsum = 0;
  for (int i = 0; i < N; i++)
    t += a[i];
  for (int i = 0; i < 8; i++) {
    rsum += rows[i];
    rss += rs[i];
  }
  printf("c=%d s=%.0f r=%.0f nth=%s t=%.0f rows=%d rs=%.0f last=%d nth2=%d\n", c, s, r,
         nth == 1 ? "1" : nth > 1 ? "many" : "?", t, rsum, rss, last, nth2);
  return s == 500500 && r == 1001000 && nth == (c ? nth : 1) && nth >= 1 && t == 499500 && rsum == 800 &&
         rss == 319600 && last == 999 && nth2 == 1;
}

int main(void) {
  int ok = run(0) & run(1);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return !ok;
}
