// -fptxcc-layout=auto on a section passed in as a plain pointer, in a region whose kernel also
// gets the address of a local (its reduction variable): the pointer cannot point into the
// function's own frame, so a[0:n*4] read as a[i*4 + c] becomes [4][n] on the device; a second
// plain pointer passed in instead (an output array) may alias it and keeps it as it is.
// Checked against the serial sums.
// RUN: %ptxcc -fopenmp -O2 -fptxcc-layout=auto -fptxcc-info %s -o %t 2>&1 | FileCheck %s --check-prefix=INFO
// RUN: %run %t | FileCheck %s
// RUN: env PTXRT_LAYOUT_AUTO=always %run %t | FileCheck %s
// INFO-DAG: auto-reduction.c:[[#@LINE+13]]:1: layout: a[?] -> [4][?] (seen as [?][4]: consecutive threads step 4 elements in 4 of 4 accesses)
// INFO-DAG: auto-reduction.c:[[#@LINE+22]]:1: layout: a[?] stays: safety cannot be proved (kernel '{{.*}}' also gets pointer argument {{[0-9]}}, which may point into the same memory; declare the pointers 'restrict', or map arrays this function allocates)
// CHECK: sum: PASS
// CHECK: out: PASS
#include <stdio.h>
#include <stdlib.h>

static double weigh(const double *a, int i) {
  return a[i * 4 + 0] + 2 * a[i * 4 + 1] + 3 * a[i * 4 + 2] + 4 * a[i * 4 + 3];
}

double sum(double *a, int n, int iters) {
  double s = 0;
#pragma omp target data map(to : a[0:n * 4])
  for (int it = 0; it < iters; it++) {
#pragma omp target teams distribute parallel for reduction(+ : s)
    for (int i = 0; i < n; i++)
      s += a[i * 4 + 0] + 2 * a[i * 4 + 1] + 3 * a[i * 4 + 2] + 4 * a[i * 4 + 3];
  }
  return s;
}

void out(double *a, double *o, int n, int iters) {
#pragma omp target data map(to : a[0:n * 4]) map(tofrom : o[0:n])
  for (int it = 0; it < iters; it++) {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++)
      o[i] += a[i * 4 + 0] + 2 * a[i * 4 + 1] + 3 * a[i * 4 + 2] + 4 * a[i * 4 + 3];
  }
}

int main(void) {
  int n = 1000, iters = 3;
  double *a = malloc(sizeof(double) * 4 * n), *o = calloc(n, sizeof(double));
  for (int i = 0; i < 4 * n; i++) a[i] = i % 13;
  double s = sum(a, n, iters), r = 0;
  for (int it = 0; it < iters; it++)
    for (int i = 0; i < n; i++) r += weigh(a, i);
  out(a, o, n, iters);
  int bad = 0;
  for (int i = 0; i < n; i++) bad += o[i] != iters * weigh(a, i);
  printf("sum: %s\n", s == r ? "PASS" : "FAIL");
  printf("out: %s (%d wrong)\n", bad ? "FAIL" : "PASS", bad);
  return s != r || bad;
}
