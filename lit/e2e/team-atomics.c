// Atomic updates in the code of a teams region around its parallel loop (atomic, update, capture,
// compare), in a parallel region its if clause serialises, and in a combined construct with an if
// clause: thread 0 makes each update once per team, and every thread continues with its result.
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t | FileCheck %s
// RUN: %ptxcc -fopenmp -O0 %s -o %t0
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t0 | FileCheck %s
// CHECK: 9597.0 64 64 2016 153.0
// CHECK-NEXT: 125 125
// CHECK-NEXT: 126 125
#include <stdio.h>
#include <omp.h>
#define N 64
#define M 50
int main(int argc, char **argv) {
  static double a[N][M];
  for (int i = 0; i < N; i++) for (int j = 0; j < M; j++) a[i][j] = (i + j) % 7;
  double total = 0; int rows = 0, order[N]; int next = 0; double mx = -1;
#pragma omp target teams distribute map(to: a) map(tofrom: total, rows, order, next, mx) num_teams(8)
  for (int i = 0; i < N; i++) {
    double s = 0;
#pragma omp parallel for reduction(+:s)
    for (int j = 0; j < M; j++) s += a[i][j];
#pragma omp atomic
    total += s;
#pragma omp atomic update
    rows++;
    int slot;
#pragma omp atomic capture
    slot = next++;
    order[slot] = i;
#pragma omp atomic compare
    if (s > mx) mx = s;
  }
  long chk = 0; for (int k = 0; k < N; k++) chk += order[k];
  printf("%.1f %d %d %ld %.1f\n", total, rows, next, chk, mx);
  // serialised parallel region with atomics (if false at run time)
  int c = argc > 5, hist[8] = {0};
#pragma omp target teams distribute parallel for if(parallel: c) map(tofrom: hist)
  for (int i = 0; i < 1000; i++) {
#pragma omp atomic
    hist[i % 8]++;
  }
  printf("%d %d\n", hist[0], hist[7]);
  int h2[8] = {0};
  int n = 1000 + argc;
#pragma omp target teams distribute parallel for if(n > 100) map(tofrom: h2)
  for (int i = 0; i < n; i++) {
#pragma omp atomic
    h2[i % 8]++;
  }
  printf("%d %d\n", h2[0], h2[7]);
  return 0;
}
