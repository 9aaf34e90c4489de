// A collapse(3) stencil in a data region over several devices: the access ranges bound the
// middle and inner indices through the remainder of the collapsed iteration (table version 2:
// it / (nj*nk), it % (nj*nk), (it % (nj*nk)) / nk, (it % (nj*nk)) % nk), and the runtime starts
// each part at a whole plane of the outer index (11 planes of 7 x 9 = 63 iterations: 693
// iterations, halves [0, 346) and [346, 693) become [0, 315) and [315, 693)), so the parts'
// write ranges share no plane and the arrays stay spread between launches. Every result is the
// serial one on 1..4 devices, split or hybrid.
// RUN: %ptxcc -fopenmp -fptxcc-multi-device -O2 %s -o %t
// RUN: env PTXRT_EMU_DEVICES=1 PTXSIM_DEVICES=1 %run %t | FileCheck %s
// RUN: env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 PTXRT_DEBUG=1 %run %t 2>&1 | FileCheck %s --check-prefixes=CHECK,SPLIT
// RUN: env PTXRT_EMU_DEVICES=3 PTXSIM_DEVICES=3 %run %t | FileCheck %s
// RUN: env PTXRT_EMU_DEVICES=4 PTXSIM_DEVICES=4 %run %t | FileCheck %s
// RUN: %ptxcc -fopenmp -fptxcc-hybrid -O2 %s -o %t.hybrid
// RUN: env PTXRT_CPU_WEIGHT=0.3 PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 %run %t.hybrid | FileCheck %s
// RUN: env PTXRT_CPU_WEIGHT=0.5 %run %t.hybrid | FileCheck %s
// SPLIT: ptxrt: split {{.*}} 693 iterations: [0, 315) on device 0, [315, 693) on device 1
// CHECK: 0 mismatches
#include <stdio.h>
#include <stdlib.h>
#define NI 13
#define NJ 9
#define NK 11
#define IDX(i, j, k) (((i) * NJ + (j)) * NK + (k))
static float p[NI * NJ * NK], q[NI * NJ * NK], rp[NI * NJ * NK], rq[NI * NJ * NK];
static void sweep(float *a, float *b, long ni, long nj, long nk, int gpu) {
  if (gpu) {
#pragma omp target teams distribute parallel for collapse(3)
    for (long i = 1; i < ni - 1; i++)
      for (long j = 1; j < nj - 1; j++)
        for (long k = 1; k < nk - 1; k++)
          b[(i * nj + j) * nk + k] = (a[((i - 1) * nj + j) * nk + k] + a[((i + 1) * nj + j) * nk + k] +
                                      a[(i * nj + j - 1) * nk + k] + a[(i * nj + j + 1) * nk + k] +
                                      a[(i * nj + j) * nk + k - 1] + a[(i * nj + j) * nk + k + 1]) / 6.0f;
  } else {
    for (long i = 1; i < ni - 1; i++)
      for (long j = 1; j < nj - 1; j++)
        for (long k = 1; k < nk - 1; k++)
          b[(i * nj + j) * nk + k] = (a[((i - 1) * nj + j) * nk + k] + a[((i + 1) * nj + j) * nk + k] +
                                      a[(i * nj + j - 1) * nk + k] + a[(i * nj + j + 1) * nk + k] +
                                      a[(i * nj + j) * nk + k - 1] + a[(i * nj + j) * nk + k + 1]) / 6.0f;
  }
}
int main(void) {
  for (int x = 0; x < NI * NJ * NK; x++)
    p[x] = q[x] = rp[x] = rq[x] = (x % 17) * 0.5f;
#pragma omp target data map(tofrom : p, q)
  for (int s = 0; s < 6; s++) {
    sweep(p, q, NI, NJ, NK, 1);
    sweep(rp, rq, NI, NJ, NK, 0);
    sweep(q, p, NI, NJ, NK, 1);
    sweep(rq, rp, NI, NJ, NK, 0);
  }
  int bad = 0;
  for (int x = 0; x < NI * NJ * NK; x++)
    bad += p[x] != rp[x] || q[x] != rq[x];
  printf("%d mismatches\n", bad);
  return bad != 0;
}
