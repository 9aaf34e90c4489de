// -fptxcc-multi-device with access ranges: each device receives only the bytes its part of
// the loop reads or writes (halos included) and sends back only those it writes. Every loop
// here reads neighbours (i-1, i+1; rows above and below) that belong to another device's
// part: a halo that were not copied in would read as something else than the host's value and
// the answer would differ from the serial one. Writes that do not happen (a conditional
// store) keep the host's bytes. Checked on 1..4 devices, unequal weights, and PTXRT_DEBUG=1
// (whole sections, and a check that no byte changed outside the write ranges).
// RUN: %ptxcc -fopenmp -fptxcc-multi-device -O2 %s -o %t
// RUN: env PTXRT_EMU_DEVICES=1 PTXSIM_DEVICES=1 %run %t | FileCheck %s
// RUN: env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 %run %t | FileCheck %s
// RUN: env PTXRT_EMU_DEVICES=3 PTXSIM_DEVICES=3 %run %t | FileCheck %s
// RUN: env PTXRT_EMU_DEVICES=4 PTXSIM_DEVICES=4 %run %t | FileCheck %s
// RUN: env PTXRT_EMU_DEVICES=3 PTXSIM_DEVICES=3 PTXRT_DEVICE_WEIGHTS=1,5,2 %run %t | FileCheck %s
// RUN: env PTXRT_EMU_DEVICES=3 PTXSIM_DEVICES=3 PTXRT_DEBUG=1 %run %t 2>&1 | FileCheck %s --check-prefixes=CHECK,DEBUG
// DEBUG-NOT: internal error
// CHECK: stencil1d: 0 mismatches
// CHECK: conditional: 0 mismatches
// CHECK: rows: 0 mismatches
// CHECK: collapsed: 0 mismatches
// CHECK: sweeps: 0 mismatches
#include <stdio.h>

#define N 1000
#define M 40

static double x[N], y[N], ys[N];
static double u[M * M], v[M * M], us[M * M], vs[M * M];

static void stencil1d(int n, const double *a, double *b) {
#pragma omp target teams distribute parallel for map(to : a[0:n]) map(tofrom : b[0:n])
  for (int i = 1; i < n - 1; i++)
    b[i] = a[i - 1] + 2 * a[i] + 3 * a[i + 1];
}

static void conditional(int n, const double *a, double *b) {
#pragma omp target teams distribute parallel for map(to : a[0:n]) map(tofrom : b[0:n])
  for (int i = 0; i < n; i++)
    if (i % 3 == 0)
      b[i] = a[i] * 2;
}

static void rows(int m, const double *a, double *b) {
#pragma omp target teams distribute parallel for map(to : a[0:m * m]) map(tofrom : b[0:m * m])
  for (int i = 1; i < m - 1; i++)
    for (int j = 1; j < m - 1; j++)
      b[i * m + j] = 0.25 * (a[(i - 1) * m + j] + a[(i + 1) * m + j] + a[i * m + j - 1] + a[i * m + j + 1]);
}

static void collapsed(long m, const double *a, double *b) {
#pragma omp target teams distribute parallel for collapse(2) map(to : a[0:m * m]) map(tofrom : b[0:m * m])
  for (long i = 1; i < m - 1; i++)
    for (long j = 1; j < m - 1; j++)
      b[i * m + j] = a[(i - 1) * m + j] - a[(i + 1) * m + j] + 2 * a[i * m + j];
}

static void sweep_serial(int m, const double *a, double *b) {
  for (int i = 1; i < m - 1; i++)
    for (int j = 1; j < m - 1; j++)
      b[i * m + j] = 0.25 * (a[(i - 1) * m + j] + a[(i + 1) * m + j] + a[i * m + j - 1] + a[i * m + j + 1]);
}

static int mismatches(const double *a, const double *b, int n) {
  int bad = 0;
  for (int i = 0; i < n; i++)
    bad += a[i] != b[i];
  return bad;
}

int main(void) {
  for (int i = 0; i < N; i++) {
    x[i] = i + 1;
    y[i] = ys[i] = -1;
  }
  stencil1d(N, x, y);
  for (int i = 1; i < N - 1; i++)
    ys[i] = x[i - 1] + 2 * x[i] + 3 * x[i + 1];
  printf("stencil1d: %d mismatches\n", mismatches(y, ys, N));

  for (int i = 0; i < N; i++)
    y[i] = ys[i] = 7;
  conditional(N, x, y);
  for (int i = 0; i < N; i += 3)
    ys[i] = x[i] * 2;
  printf("conditional: %d mismatches\n", mismatches(y, ys, N));

  for (int i = 0; i < M * M; i++) {
    u[i] = us[i] = (i * 7) % 13 + 1;
    v[i] = vs[i] = -1;
  }
  rows(M, u, v);
  sweep_serial(M, us, vs);
  printf("rows: %d mismatches\n", mismatches(v, vs, M * M));

  for (int i = 0; i < M * M; i++)
    v[i] = vs[i] = -2;
  collapsed(M, u, v);
  for (int i = 1; i < M - 1; i++)
    for (int j = 1; j < M - 1; j++)
      vs[i * M + j] = us[(i - 1) * M + j] - us[(i + 1) * M + j] + 2 * us[i * M + j];
  printf("collapsed: %d mismatches\n", mismatches(v, vs, M * M));

  // Sweeps in a data region: the arrays stay on the construct's device between launches.
  for (int i = 0; i < M * M; i++) {
    u[i] = us[i] = (i * 5) % 11;
    v[i] = vs[i] = u[i];
  }
#pragma omp target data map(tofrom : u[0:M * M], v[0:M * M])
  for (int s = 0; s < 6; s++) {
    rows(M, u, v);
    rows(M, v, u);
  }
  for (int s = 0; s < 6; s++) {
    sweep_serial(M, us, vs);
    sweep_serial(M, vs, us);
  }
  printf("sweeps: %d mismatches\n", mismatches(u, us, M * M) + mismatches(v, vs, M * M));
  return 0;
}
