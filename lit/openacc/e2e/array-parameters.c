// Parameters declared as arrays (`double A[N][M]`, `double tmp[N]`, `double v[n]`) are pointers
// in C. A data region maps their data as sections, and a compute construct inside names them
// in present(): the pointers' data is found there (the front end used to take them for arrays
// and ask for the 8 bytes of the pointer variables instead: "not present"). A compute
// construct that names none of them maps them by its accesses. Checked against the serial sums.
// REQUIRES: libptxrt
// RUN: %ptxcc -fopenacc -O2 %s -o %t && %run %t | FileCheck %s
// CHECK: rows: 28 148
// CHECK: scaled: 0 30
// CHECK: PASS
#include <stdio.h>
#define N 16
#define M 8

static void rows(double A[N][M], double tmp[N]) {
#pragma acc data copyin(A[0:N]) copyout(tmp[0:N])
  {
#pragma acc parallel present(tmp, A)
    {
#pragma acc loop
      for (int i = 0; i < N; i++) {
        tmp[i] = 0;
        for (int j = 0; j < M; j++) tmp[i] += A[i][j];
      }
    }
  }
}

static void scaled(int n, double v[n], const double w[]) {
#pragma acc parallel loop
  for (int i = 0; i < n; i++) v[i] = 2 * w[i];
}

int main(void) {
  static double A[N][M], tmp[N], v[N], w[N];
  for (int i = 0; i < N; i++) {
    w[i] = i;
    for (int j = 0; j < M; j++) A[i][j] = i + j;
  }
  rows(A, tmp);
  scaled(N, v, w);
  int bad = 0;
  for (int i = 0; i < N; i++) bad += tmp[i] != M * i + 28 || v[i] != 2 * i;
  printf("rows: %g %g\n", tmp[0], tmp[N - 1]);
  printf("scaled: %g %g\n", v[0], v[N - 1]);
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad;
}
