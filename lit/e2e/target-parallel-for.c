// `target parallel for` (one team of threads, no teams construct), with a plain loop and a reduction-free
// scatter; each iteration runs exactly once.
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t | FileCheck %s
// CHECK: teams=1
// CHECK: PASS
#include <omp.h>
#include <stdio.h>

int main(void) {
  enum { N = 10000 };
  static int hits[N];
  static double y[N];
  int teams = -1;
#pragma omp target parallel for map(tofrom : hits, y) map(from : teams)
  for (int i = 0; i < N; i++) {
    hits[i] += 1;
    y[i] = 0.5 * i;
    if (i == 0)
      teams = omp_get_num_teams();
  }
  int ok = teams == 1;
  for (int i = 0; i < N; i++)
    ok &= hits[i] == 1 && y[i] == 0.5 * i;
  printf("teams=%d\n%s\n", teams, ok ? "PASS" : "FAIL");
  return !ok;
}
