// Subscripts written as Himeno writes them: `int` loop indices cast to long inside the
// subscript, x[((long)(i + 1) * nj + j) * nk + k]. Clang computes i + 1 in int and instcombine
// sign-extends it as ashr (add (shl i, 32), 1 << 32), 32, without nsw; the access ranges read
// that as the int value, guarded, so every array of this collapse(3) stencil with a reduction
// is bounded by planes (no whole section) and the data region's arrays stay spread between
// sweeps. The results are the serial ones on 1..4 devices, split or hybrid.
// RUN: %ptxcc -fopenmp -fptxcc-multi-device -fptxcc-info -O2 %s -o %t 2>&1 | FileCheck %s --check-prefix=INFO --implicit-check-not="whole section"
// RUN: env PTXRT_EMU_DEVICES=1 PTXSIM_DEVICES=1 %run %t | FileCheck %s
// RUN: env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 PTXRT_DEBUG=1 %run %t 2>&1 | FileCheck %s --check-prefixes=CHECK,SPLIT
// RUN: env PTXRT_EMU_DEVICES=4 PTXSIM_DEVICES=4 %run %t | FileCheck %s
// RUN: %ptxcc -fopenmp -fptxcc-hybrid -O2 %s -o %t.hybrid
// RUN: env PTXRT_CPU_WEIGHT=0.4 PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 %run %t.hybrid | FileCheck %s
// INFO: access ranges of kernel '{{.*}}relax{{.*}}': {{.*}}(v1 = i / ({{.*}}), v2 = i % ({{.*}}), v3 = v2 / ({{.*}}), v4 = v2 % ({{.*}}))
// SPLIT: ptxrt: split {{.*}}relax{{.*}} 1089 iterations: [0, 495) on device 0, [495, 1089) on device 1
// CHECK: residual ok, 0 mismatches
#include <math.h>
#include <stdio.h>
#define NI 13
#define NJ 11
#define NK 13
#define A3(x, i, j, k) x[((long)(i) * nj + (j)) * nk + (k)]

static float u[NI * NJ * NK], v[NI * NJ * NK], w[NI * NJ * NK];
static float su[NI * NJ * NK], sv[NI * NJ * NK];

// v = a weighted 7-point stencil of u (w the weights); returns the sum of the squared changes.
static double relax(const float *u, float *v, const float *w, int ni, int nj, int nk, int gpu) {
  double r = 0.0;
#pragma omp target teams distribute parallel for collapse(3) reduction(+ : r) if (gpu)
  for (int i = 1; i < ni - 1; i++)
    for (int j = 1; j < nj - 1; j++)
      for (int k = 1; k < nk - 1; k++) {
        float s = A3(u, i + 1, j, k) + A3(u, i - 1, j, k) + A3(u, i, j + 1, k) +
                  A3(u, i, j - 1, k) + A3(u, i, j, k + 1) + A3(u, i, j, k - 1);
        float d = A3(w, i, j, k) * s / 6.0f - A3(u, i, j, k);
        A3(v, i, j, k) = A3(u, i, j, k) + d;
        r += (double)d * d;
      }
  return r;
}

int main(void) {
  int nj = NJ, nk = NK;
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++)
      for (int k = 0; k < NK; k++) {
        A3(u, i, j, k) = A3(v, i, j, k) = A3(su, i, j, k) = A3(sv, i, j, k) = (float)((i * 7 + j * 3 + k) % 11);
        A3(w, i, j, k) = 0.5f + 0.05f * (float)((i + j + k) % 5);
      }
  double r = 0, sr = 0;
#pragma omp target data map(tofrom : u, v) map(to : w)
  for (int s = 0; s < 4; s++) {
    r = relax(u, v, w, NI, NJ, NK, 1);
    sr = relax(su, sv, w, NI, NJ, NK, 0);
    r += relax(v, u, w, NI, NJ, NK, 1);
    sr += relax(sv, su, w, NI, NJ, NK, 0);
  }
  int bad = 0;
  for (int x = 0; x < NI * NJ * NK; x++)
    bad += u[x] != su[x] || v[x] != sv[x];
  printf("residual %s, %d mismatches\n", fabs(r - sr) <= 1e-9 * sr ? "ok" : "differs", bad);
  return bad != 0;
}
