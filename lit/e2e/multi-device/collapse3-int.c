// A collapse(3) stencil over `int` bounds in a data region, split over devices. Clang 19
// computes its indices in 32 bits from masked, sign-extended and truncated 64-bit values (see
// lit/passes/access-ranges/int-bounds.ll); the access ranges still bound every part by planes
// of i (the parts start at whole planes of 7 x 9 iterations), so each device moves what it
// touches: the same bytes as with `long` bounds (collapse3-planes.c), where before every
// access was the whole section. The runtime checks each `int` value the ranges read (the
// table's guards) for every part.
// A second loop indexes through unsigned arithmetic that wraps on purpose
// ((unsigned)i + 0xffffffff is i - 1 as an int): an add without nsw, guarded, exact.
// RUN: %ptxcc -fopenmp -fptxcc-multi-device -O2 %s -o %t
// RUN: env PTXRT_EMU_DEVICES=1 PTXSIM_DEVICES=1 %run %t | FileCheck %s
// RUN: env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 PTXRT_DEBUG=1 %run %t 2>&1 | FileCheck %s --check-prefixes=CHECK,SPLIT
// RUN: env PTXRT_EMU_DEVICES=3 PTXSIM_DEVICES=3 %run %t | FileCheck %s
// RUN: env PTXRT_EMU_DEVICES=4 PTXSIM_DEVICES=4 %run %t | FileCheck %s
// RUN: rm -f %t.json
// RUN: env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 PTXRT_PROFILE=json:%t.json %run %t | FileCheck %s
// RUN: FileCheck %s --check-prefix=BYTES < %t.json
// RUN: %ptxcc -fopenmp -fptxcc-multi-device -fptxcc-info -O2 %s -o %t.info 2>&1 | FileCheck %s --check-prefix=INFO --implicit-check-not="whole section"
// RUN: %ptxcc -fopenmp -fptxcc-hybrid -O2 %s -o %t.hybrid
// RUN: env PTXRT_CPU_WEIGHT=0.3 PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 %run %t.hybrid | FileCheck %s
// SPLIT: ptxrt: split {{.*}} 693 iterations: [0, 315) on device 0, [315, 693) on device 1
// CHECK: 0 mismatches
// The bytes on 2 devices: the stencil's 12 launches move between the devices what
// collapse3-planes.c moves with `long` bounds (3300 bytes of halo planes to device 0, 9144 to
// device 1: its planes and a halo plane first, then halo planes); with whole sections device 1
// would copy in both arrays (5148 bytes each) at every launch. The end of the data region
// copies device 1's planes (4260 bytes) from device 1 to the host. The second loop's 2
// launches map their sections per launch: device 1 gets its half of each (plus src's halo
// element) and returns its half of dst.
// BYTES: "devices": [
// BYTES-NEXT: {"id": 0, {{.*}} "h2d_bytes": 11080, "d2h_bytes": 6428, "peer_bytes": 3300,
// BYTES-NEXT: {"id": 1, {{.*}} "h2d_bytes": 800, "d2h_bytes": 4660, "peer_bytes": 9144,
// INFO: access ranges of kernel '{{.*}}sweep{{.*}}': argument {{[0-9]}}: read [4*v1*arg2*arg3
// INFO: access ranges of kernel '{{.*}}shifted{{.*}}': argument 3: read [4*arg4 + 4*i + 4, 4*arg4 + 4*i + 8); argument 2: written [4*i + 4, 4*i + 8)
#include <stdio.h>
#define NI 13
#define NJ 9
#define NK 11
#define N 100
static float p[NI * NJ * NK], q[NI * NJ * NK], rp[NI * NJ * NK], rq[NI * NJ * NK];
static float u[N], w[N];

// One point of the 7-point stencil, every subscript computed in int.
#define STENCIL(a, b)                                                                \
  b[(i * nj + j) * nk + k] =                                                         \
      (a[((i - 1) * nj + j) * nk + k] + a[((i + 1) * nj + j) * nk + k] +             \
       a[(i * nj + j - 1) * nk + k] + a[(i * nj + j + 1) * nk + k] +                 \
       a[(i * nj + j) * nk + k - 1] + a[(i * nj + j) * nk + k + 1]) / 6.0f

static void sweep(float *a, float *b, int ni, int nj, int nk, int gpu) {
  if (gpu) {
#pragma omp target teams distribute parallel for collapse(3)
    for (int i = 1; i < ni - 1; i++)
      for (int j = 1; j < nj - 1; j++)
        for (int k = 1; k < nk - 1; k++)
          STENCIL(a, b);
  } else {
    for (int i = 1; i < ni - 1; i++)
      for (int j = 1; j < nj - 1; j++)
        for (int k = 1; k < nk - 1; k++)
          STENCIL(a, b);
  }
}

// w[i] = u[i - 1] + 1, the index computed as (unsigned)i + 0xffffffff.
static void shifted(float *dst, const float *src, int n, unsigned minus_one) {
#pragma omp target teams distribute parallel for map(to : src[0:n]) map(tofrom : dst[0:n])
  for (int i = 1; i < n; i++)
    dst[i] = src[(int)((unsigned)i + minus_one)] + 1.0f;
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
  for (int i = 0; i < N; i++)
    u[i] = (float)i, w[i] = -1.0f;
  shifted(w, u, N, 0xffffffffu);
  shifted(w, u, N, 0xffffffffu);
  bad += w[0] != -1.0f;
  for (int i = 1; i < N; i++)
    bad += w[i] != (float)i;
  printf("%d mismatches\n", bad);
  return bad != 0;
}
