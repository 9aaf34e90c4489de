// `target teams distribute` without `parallel for`: the iterations are shared among teams (one thread
// each); every iteration runs once, and each iteration sees thread 0 of a team of one thread.
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t | FileCheck %s
// CHECK: PASS
#include <omp.h>
#include <stdio.h>

int main(void) {
  enum { N = 5000 };
  static int hits[N], tid[N], nthr[N];
  static double y[N];
#pragma omp target teams distribute map(tofrom : hits, y, tid, nthr)
  for (int i = 0; i < N; i++) {
    hits[i] += 1;
    y[i] = 3.0 * i + 1.0;
    tid[i] = omp_get_thread_num();
    nthr[i] = omp_get_num_threads();
  }
  int ok = 1;
  for (int i = 0; i < N; i++)
    ok &= hits[i] == 1 && y[i] == 3.0 * i + 1.0 && tid[i] == 0 && nthr[i] == 1;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return !ok;
}
