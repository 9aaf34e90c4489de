// -fptxcc-layout=auto on a flat section of scalars indexed by hand (issue 18): a[0:n*4] read
// as a[i*4 + c] (four values per point). The lanes step 4 elements; the host proves the
// length a multiple of 4 (n*4), so a is the grid [n][4] on the device as [4][n]: the lanes read
// consecutive elements. The run-time extent is the section's length / 4. The kernel runs in a
// loop inside the data region (the conversions pay once for every trip). Checked against the
// serial answer for two sizes.
// RUN: %ptxcc -fopenmp -O2 -fptxcc-layout=auto -fptxcc-info %s -o %t 2>&1 | FileCheck %s --check-prefix=INFO
// RUN: %run %t 1000 | FileCheck %s
// RUN: %run %t 333 | FileCheck %s
// INFO-DAG: auto-flat.c:[[#]]:1: layout: a[?] -> [4][?] (seen as [?][4]: consecutive threads step 4 elements in 4 of 4 accesses)
// INFO-DAG: auto-flat.c:[[#]]:1: trans: 'a' is a[4][?] on the device; 4 accesses in 1 kernel rewritten
// INFO-DAG: auto-flat.c:[[#]]:1: layout: out[?] stays: already coalesced
// CHECK: PASS
#include <stdio.h>
#include <stdlib.h>
void step(double *restrict a, double *restrict out, int n, int iters) {
#pragma omp target data map(to : a[0:n*4]) map(from : out[0:n])
  for (int it = 0; it < iters; it++) {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++) out[i] = a[i*4+0] + 2*a[i*4+1] + 3*a[i*4+2] + 4*a[i*4+3];
  }
}
int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000;
  double *a = malloc(sizeof(double) * 4 * n), *o = malloc(sizeof(double) * n);
  for (int i = 0; i < 4 * n; i++) a[i] = i % 13;
  step(a, o, n, argc > 2 ? atoi(argv[2]) : 2);
  int bad = 0;
  for (int i = 0; i < n; i++) bad += o[i] != a[i*4] + 2*a[i*4+1] + 3*a[i*4+2] + 4*a[i*4+3];
  printf("%s\n", bad ? "FAIL" : "PASS"); return bad;
}
