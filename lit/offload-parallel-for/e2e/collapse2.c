// collapse(2) over a global 2-D array and over a heap matrix in a target data region.
// RUN: %ptxcc -fopenmp -O2 -fopenmp-offload-parallel-for=report %s -o %t 2> %t.report
// RUN: FileCheck %s --check-prefix=REPORT --implicit-check-not="warning: pointer" < %t.report
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY PTXRT_DEBUG=1 %t 2> %t.launches | FileCheck %s
// RUN: FileCheck %s --check-prefix=LAUNCH < %t.launches
// CHECK: global 2-D: PASS
// CHECK: heap matrix: PASS
#include <stdio.h>
#include <stdlib.h>

#define R 300
#define C 257
double m[R][C];

int main(void) {
  // REPORT: collapse2.c:[[@LINE+2]]: parallel for offloaded: target teams distribute parallel for{{$}}
  // LAUNCH: ptxrt: launch {{.*}}collapse2.c:[[@LINE+1]]:{{[0-9]+}}: kernel
#pragma omp parallel for collapse(2)
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      m[i][j] = i * 1000 + j;
  int ok1 = 1;
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      ok1 &= m[i][j] == i * 1000 + j;
  printf("global 2-D: %s\n", ok1 ? "PASS" : "FAIL");

  int rows = 123, cols = 45;
  double *t = malloc(sizeof(double) * rows * cols);
  int i, j;
#pragma omp target data map(from: t[0:rows * cols])
  {
    // REPORT: collapse2.c:[[@LINE+2]]: parallel for offloaded: target teams distribute parallel for{{$}}
    // LAUNCH: ptxrt: launch {{.*}}collapse2.c:[[@LINE+1]]:{{[0-9]+}}: kernel
#pragma omp parallel for collapse(2) schedule(static, 3)
    for (i = 0; i < rows; i++)
      for (j = 0; j < cols; j++)
        t[i * cols + j] = m[i][j] - j;
  }
  int ok2 = 1;
  for (i = 0; i < rows; i++)
    for (j = 0; j < cols; j++)
      ok2 &= t[i * cols + j] == i * 1000;
  printf("heap matrix: %s\n", ok2 ? "PASS" : "FAIL");
  free(t);
  return !(ok1 && ok2);
}
