// A 'routine gang' function called by every gang of a parallel region: its gang loop's
// iterations are shared by the gangs (each runs its share once), also from a serial region, a
// kernels region and the host (one gang: all of them).
// REQUIRES: libptxrt
// RUN: %ptxcc -fopenacc %s -o %t && %run %t | FileCheck %s
// CHECK: PASS
#include <stdio.h>
#include <stdlib.h>

#pragma acc routine gang
static void axpy(double *y, const double *x, int n, double s) {
  #pragma acc loop gang vector
  for (int i = 0; i < n; i++) {
    if (i % 7 == 3) continue;
    y[i] += s * x[i];
  }
}

#pragma acc routine gang
static void twice(double *y, int n) {
  #pragma acc loop gang
  for (int i = 0; i < n; i++)
    y[i] *= 2;
}

int main(void) {
  int n = 10000, bad = 0;
  double *x = malloc(n * sizeof(double)), *y = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) { x[i] = i; y[i] = 1; }
  #pragma acc parallel copy(y[0:n]) copyin(x[0:n]) num_gangs(8)
  {
    axpy(y, x, n, 0.5);
    twice(y, n);
  }
  for (int i = 0; i < n; i++) {
    double want = 2 * (1 + (i % 7 == 3 ? 0 : 0.5 * i));
    if (y[i] != want) { bad |= 1; break; }
  }
  #pragma acc serial copy(y[0:n])
  twice(y, n);
  #pragma acc kernels copy(y[0:n])
  twice(y, n);
  twice(y, n);
  for (int i = 0; i < n; i++) {
    double want = 16 * (1 + (i % 7 == 3 ? 0 : 0.5 * i));
    if (y[i] != want) { bad |= 2; break; }
  }
  printf("%s %d\n", bad ? "FAIL" : "PASS", bad);
  return bad;
}
