// -fptxcc-layout=auto on a flat section of constant length indexed by hand (issue 18), as
// Himeno's own code keeps its matrices: a[0:N*4] read as a[i*4 + c]. The lanes step 4
// elements and the section's 32000 bytes are 1000 rows of four doubles, so a is the grid
// [1000][4] on the device as [4][1000]. A section whose bytes are not whole rows stays, and
// says why. Checked against the serial answer, also with every launch in auto's layout.
// RUN: %ptxcc -fopenmp -O2 -fptxcc-layout=auto -fptxcc-info %s -o %t 2>&1 | FileCheck %s --check-prefix=INFO
// RUN: %run %t | FileCheck %s
// RUN: env PTXRT_LAYOUT_AUTO=always %run %t | FileCheck %s
// INFO-DAG: auto-flat-const.c:[[#]]:1: layout: a[32000] -> [4][1000] (seen as [1000][4]: consecutive threads step 4 elements in 4 of 4 accesses)
// INFO-DAG: auto-flat-const.c:[[#]]:1: trans: 'a' is a[4][1000] on the device; 4 accesses in 1 kernel rewritten
// INFO-DAG: auto-flat-const.c:[[#]]:1: layout: b[32016] stays: consecutive threads step 4 elements of 8 bytes, which do not divide its 32016 bytes
// CHECK: PASS
#include <stdio.h>
#include <stdlib.h>
#define N 1000
int main(void) {
  double *a = malloc(sizeof(double) * N * 4), *b = malloc(sizeof(double) * (N * 4 + 2));
  double *o = malloc(sizeof(double) * N), *q = malloc(sizeof(double) * N);
  for (int i = 0; i < 4 * N; i++) a[i] = i % 13;
  for (int i = 0; i < 4 * N + 2; i++) b[i] = i % 7;
#pragma omp target data map(to : a[0:N * 4], b[0:N * 4 + 2]) map(from : o[0:N], q[0:N])
  for (int it = 0; it < 3; it++) {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++) o[i] = a[i * 4 + 0] + 2 * a[i * 4 + 1] + 3 * a[i * 4 + 2] + 4 * a[i * 4 + 3];
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++) q[i] = b[i * 4 + 0] - b[i * 4 + 1] + b[i * 4 + 2] - b[i * 4 + 3];
  }
  int bad = 0;
  for (int i = 0; i < N; i++) {
    bad += o[i] != a[i * 4] + 2 * a[i * 4 + 1] + 3 * a[i * 4 + 2] + 4 * a[i * 4 + 3];
    bad += q[i] != b[i * 4] - b[i * 4 + 1] + b[i * 4 + 2] - b[i * 4 + 3];
  }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
