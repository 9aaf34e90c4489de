// -fptxcc-multi-device inside data regions: a Jacobi sweep iterated in `target data`, its two
// grids swapped by pointer (zero-length sections: the present sections they point into give
// the extents), split over the devices at every sweep; the data region's device copy stays the
// current one (the host copy is untouched until the region ends) and the result is the serial
// one on 1..4 devices. `target update from` inside the region sees the split sweeps' results.
// RUN: %ptxcc -fopenmp -fptxcc-multi-device -O2 %s -o %t
// RUN: env PTXRT_EMU_DEVICES=1 PTXSIM_DEVICES=1 %run %t | FileCheck %s
// RUN: env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 %run %t | FileCheck %s
// RUN: env PTXRT_EMU_DEVICES=3 PTXSIM_DEVICES=3 %run %t | FileCheck %s
// RUN: env PTXRT_EMU_DEVICES=4 PTXSIM_DEVICES=4 %run %t | FileCheck %s
// RUN: env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 PTXRT_DEBUG=1 %run %t 2>&1 | FileCheck %s --check-prefix=SPLIT
// -fptxcc-hybrid: the host part of each sweep reads the data region's device copy (through
// the host's own copy of it) and its results go back there, the host copy untouched.
// RUN: %ptxcc -fopenmp -fptxcc-hybrid -O2 %s -o %t.hybrid
// RUN: env PTXRT_CPU_WEIGHT=0.5 %run %t.hybrid | FileCheck %s
// RUN: env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 PTXRT_CPU_WEIGHT=0.3 %run %t.hybrid | FileCheck %s
// RUN: env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 %run %t.hybrid | FileCheck %s
// RUN: env PTXRT_CPU_WEIGHT=0.5 PTXRT_DEBUG=1 %run %t.hybrid 2>&1 | FileCheck %s --check-prefix=HYBRID
// HYBRID: ptxrt: split {{.*}}, 62 iterations: [0, 31) on device 0, [31, 62) on the host
// CHECK: inside: host copy untouched 1, device copy after 3 sweeps matches 1
// CHECK-NEXT: after: 0 mismatches
// SPLIT: ptxrt: split {{.*}}, 62 iterations: [0, 31) on device 0, [31, 62) on device 1
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 64
#define SWEEPS 7

static void sweep_serial(const double *u, double *v) {
  for (int i = 1; i < N - 1; i++)
    for (int j = 1; j < N - 1; j++)
      v[i * N + j] = 0.25 * (u[(i - 1) * N + j] + u[(i + 1) * N + j] + u[i * N + j - 1] + u[i * N + j + 1]);
}

int main(void) {
  double *u = malloc(sizeof(double) * N * N), *v = malloc(sizeof(double) * N * N);
  double *ru = malloc(sizeof(double) * N * N), *rv = malloc(sizeof(double) * N * N);
  double *snap = malloc(sizeof(double) * N * N);
  for (int k = 0; k < N * N; k++)
    u[k] = v[k] = ru[k] = rv[k] = (k % 7) * 0.5 + (k / N == 0 ? 10 : 0);
  memcpy(snap, u, sizeof(double) * N * N);
  double *a = u, *b = v;
  int untouched = 1, after3 = 1;
#pragma omp target data map(tofrom : u[0 : N * N], v[0 : N * N])
  {
    for (int s = 0; s < SWEEPS; s++) {
#pragma omp target teams distribute parallel for
      for (int i = 1; i < N - 1; i++)
        for (int j = 1; j < N - 1; j++)
          b[i * N + j] = 0.25 * (a[(i - 1) * N + j] + a[(i + 1) * N + j] + a[i * N + j - 1] + a[i * N + j + 1]);
      double *t = a;
      a = b;
      b = t;
      sweep_serial(ru, rv);
      t = ru;
      ru = rv;
      rv = t;
      if (s == 2) {
        untouched = memcmp(u, snap, sizeof(double) * N * N) == 0;
#pragma omp target update from(a[0 : N * N])
        after3 = memcmp(a, ru, sizeof(double) * N * N) == 0;
      }
    }
  }
  printf("inside: host copy untouched %d, device copy after 3 sweeps matches %d\n", untouched, after3);
  int bad = 0;
  for (int k = 0; k < N * N; k++)
    bad += a[k] != ru[k];
  printf("after: %d mismatches\n", bad);
  return 0;
}
