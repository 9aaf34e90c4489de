// -fptxcc-multi-device in a data region: the arrays stay spread over the devices between split
// launches (ptx-runtime/src/coherence/present.rs) and everything else that touches the
// construct's device first brings home what the other devices hold and marks their copies
// stale: a `target` that does not split, `target update from` / `to`, `omp_target_memcpy` into
// the device copy (found with omp_get_mapped_ptr), the end of the region. A second region maps
// the same host arrays again (new present entries at the same addresses). Every result is the
// serial one, on 1..4 devices, and with PTXRT_DEBUG=1 (which merges whole sections instead).
// RUN: %ptxcc -fopenmp -fptxcc-multi-device -O2 %s -o %t
// RUN: env PTXRT_EMU_DEVICES=1 PTXSIM_DEVICES=1 %run %t | FileCheck %s
// RUN: env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 %run %t | FileCheck %s
// RUN: env PTXRT_EMU_DEVICES=3 PTXSIM_DEVICES=3 %run %t | FileCheck %s
// RUN: env PTXRT_EMU_DEVICES=4 PTXSIM_DEVICES=4 %run %t | FileCheck %s
// RUN: env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 PTXRT_DEBUG=1 %run %t 2>&1 | FileCheck %s --check-prefixes=CHECK,SPLIT
// -fptxcc-hybrid: the host part holds its rows between launches too (fixed shares, and tuned).
// RUN: %ptxcc -fopenmp -fptxcc-hybrid -O2 %s -o %t.hybrid
// RUN: env PTXRT_CPU_WEIGHT=0.25 %run %t.hybrid | FileCheck %s
// RUN: env PTXRT_CPU_WEIGHT=0.5 PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 %run %t.hybrid | FileCheck %s
// RUN: env PTXRT_CPU_WEIGHT=1 %run %t.hybrid | FileCheck %s
// RUN: env PTXRT_EMU_DEVICES=3 PTXSIM_DEVICES=3 %run %t.hybrid | FileCheck %s
// SPLIT: ptxrt: split {{.*}}, 46 iterations: [0, 23) on device 0, [23, 46) on device 1
// CHECK: round 0: update from: 0 mismatches
// CHECK: round 0: end of region: A 0, B 0 mismatches
// CHECK: round 1: update from: 0 mismatches
// CHECK: round 1: end of region: A 0, B 0 mismatches
#include <stdio.h>
#include <string.h>
#include <omp.h>
#define N 48
static double A[N * N], B[N * N], RA[N * N], RB[N * N];
static void sweep(double *a, double *b, int gpu) {
  if (gpu) {
#pragma omp target teams distribute parallel for
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < N - 1; j++)
        b[i * N + j] = 0.25 * (a[(i - 1) * N + j] + a[(i + 1) * N + j] + a[i * N + j - 1] + a[i * N + j + 1]);
  } else {
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < N - 1; j++)
        b[i * N + j] = 0.25 * (a[(i - 1) * N + j] + a[(i + 1) * N + j] + a[i * N + j - 1] + a[i * N + j + 1]);
  }
}
static int diff(const double *x, const double *y) {
  int bad = 0;
  for (int k = 0; k < N * N; k++)
    bad += x[k] != y[k];
  return bad;
}
int main(void) {
  for (int k = 0; k < N * N; k++)
    A[k] = B[k] = RA[k] = RB[k] = (k % 13) * 0.5 + (k < N ? 4 : 0);
  for (int round = 0; round < 2; round++) {
#pragma omp target data map(tofrom : A, B)
    {
      sweep(A, B, 1); sweep(RA, RB, 0);
      sweep(B, A, 1); sweep(RB, RA, 0);
      // A kernel that does not split changes one element of each row of A on device 0.
#pragma omp target
      for (int i = 0; i < N; i++)
        A[i * N + N / 2] += 1.0;
      for (int i = 0; i < N; i++)
        RA[i * N + N / 2] += 1.0;
      sweep(A, B, 1); sweep(RA, RB, 0);
      // The host reads the device's B, changes it and sends it back.
#pragma omp target update from(B)
      printf("round %d: update from: %d mismatches\n", round, diff(B, RB));
      for (int k = 0; k < N * N; k += 5) {
        B[k] += 0.125;
        RB[k] += 0.125;
      }
#pragma omp target update to(B)
      sweep(B, A, 1); sweep(RB, RA, 0);
      sweep(A, B, 1); sweep(RA, RB, 0);
      // The same through omp_target_memcpy of one element into device 0's copy.
      double seven = 7.0;
      int dev = omp_get_default_device();
      double *dA = omp_get_mapped_ptr(A, dev);
      omp_target_memcpy(dA, &seven, sizeof seven, (N / 2 * N + 3) * sizeof(double), 0, dev, omp_get_initial_device());
      RA[N / 2 * N + 3] = seven;
      sweep(A, B, 1); sweep(RA, RB, 0);
      sweep(B, A, 1); sweep(RB, RA, 0);
    }
    printf("round %d: end of region: A %d, B %d mismatches\n", round, diff(A, RA), diff(B, RB));
    // The host changes the arrays between the regions: the next region maps them again.
    for (int k = 0; k < N * N; k += 3) {
      A[k] = RA[k] = -A[k];
      B[k] = RB[k] = 2 * B[k];
    }
  }
  return 0;
}
