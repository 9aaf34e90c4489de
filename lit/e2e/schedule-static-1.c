// schedule(static, 1) (round-robin iterations over the threads) and dist_schedule(static, 1): the
// result is the same as the plain loop, and with one team the iterations go to threads round robin.
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t | FileCheck %s
// CHECK: PASS
#include <omp.h>
#include <stdio.h>

int main(void) {
  enum { N = 3001 };
  static int hits[N], who[N], nth[N];
  static double y[N];
#pragma omp target teams distribute parallel for schedule(static, 1) map(tofrom : hits, y)
  for (int i = 0; i < N; i++) {
    hits[i] += 1;
    y[i] = i * 0.25;
  }
#pragma omp target teams distribute parallel for dist_schedule(static, 1) schedule(static, 1) map(tofrom : hits)
  for (int i = 0; i < N; i++)
    hits[i] += 10;
#pragma omp target teams num_teams(1) map(from : who, nth)
#pragma omp distribute parallel for schedule(static, 1)
  for (int i = 0; i < N; i++) {
    who[i] = omp_get_thread_num();
    nth[i] = omp_get_num_threads();
  }
  int ok = 1;
  for (int i = 0; i < N; i++)
    ok &= hits[i] == 11 && y[i] == i * 0.25 && who[i] == i % nth[i];
  printf("threads in the team: %d\n%s\n", nth[0], ok ? "PASS" : "FAIL");
  return !ok;
}
