// -fptxcc-multi-device with reductions and atomic updates: each device's copy of a reduction
// variable (or of an array updated with `atomic`) starts at the operation's identity and the
// host folds the parts into its value in device order; every operator gives the serial answer
// on 1..4 devices, every kernel split (+, min, max, &, |, ^ on integers, + on floating point,
// an atomic histogram, and the compare-and-swap ones: floating-point min/max, *, &&, ||; more
// of those in split-fp-reductions.c).
// RUN: %ptxcc -fopenmp -fptxcc-multi-device -O2 %s -o %t
// RUN: env PTXRT_EMU_DEVICES=1 PTXSIM_DEVICES=1 %run %t | FileCheck %s
// RUN: env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 %run %t | FileCheck %s
// RUN: env PTXRT_EMU_DEVICES=3 PTXSIM_DEVICES=3 %run %t | FileCheck %s
// RUN: env PTXRT_EMU_DEVICES=4 PTXSIM_DEVICES=4 PTXRT_DEVICE_WEIGHTS=1,3,0,2 %run %t | FileCheck %s
// RUN: env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 PTXRT_DEBUG=1 %run %t 2>&1 | FileCheck %s --check-prefix=SPLIT
// -fptxcc-hybrid: the host part's copies start at the identity too and are folded last.
// RUN: %ptxcc -fopenmp -fptxcc-hybrid -O2 %s -o %t.hybrid
// RUN: env PTXRT_CPU_WEIGHT=0.3 %run %t.hybrid | FileCheck %s
// RUN: env PTXRT_EMU_DEVICES=3 PTXSIM_DEVICES=3 PTXRT_CPU_WEIGHT=0.5 %run %t.hybrid | FileCheck %s
// RUN: env PTXRT_CPU_WEIGHT=1 %run %t.hybrid | FileCheck %s
// CHECK: int: sum 500500 min -7 max 1000 and 0 or 1023 xor 1000
// CHECK-NEXT: long: sum 1000000500500 min 1000000000001 max 1000000001000
// CHECK-NEXT: unsigned: sum 500510 min 3 max 4000000000
// CHECK-NEXT: double: sum 250250.5 float: sum 500500
// CHECK-NEXT: double min -1 max 499.5 product 1024 logical 0 0
// CHECK-NEXT: histogram: 125 125 125 125 125 125 125 125
// SPLIT-COUNT-6: ptxrt: split {{.*}}, 1000 iterations: [0, 500) on device 0, [500, 1000) on device 1
#include <stdio.h>

#define N 1000
static int h[8];

int main(void) {
  int s = 0, mn = -7, mx = 0, an = ~0, o = 0, x = 0;
#pragma omp target teams distribute parallel for reduction(+ : s) reduction(min : mn) \
    reduction(max : mx) reduction(& : an) reduction(| : o) reduction(^ : x)
  for (int i = 1; i <= N; i++) {
    s += i;
    mn = i < mn ? i : mn;
    mx = i > mx ? i : mx;
    an &= i;
    o |= i;
    x ^= i;
  }
  printf("int: sum %d min %d max %d and %d or %d xor %d\n", s, mn, mx, an, o, x);

  long ls = 0, lmn = 2000000000000L, lmx = 0;
#pragma omp target teams distribute parallel for reduction(+ : ls) reduction(min : lmn) \
    reduction(max : lmx)
  for (long i = 1; i <= N; i++) {
    long v = 1000000000000L + i;
    ls += i;
    lmn = v < lmn ? v : lmn;
    lmx = v > lmx ? v : lmx;
  }
  printf("long: sum %ld min %ld max %ld\n", ls + 1000000000000L, lmn, lmx);

  unsigned us = 10, umn = 4000000000u, umx = 4000000000u;
#pragma omp target teams distribute parallel for reduction(+ : us) reduction(min : umn) \
    reduction(max : umx)
  for (unsigned i = 1; i <= N; i++) {
    us += i;
    umn = i + 2 < umn ? i + 2 : umn;
    umx = i > umx ? i : umx;
  }
  printf("unsigned: sum %u min %u max %u\n", us, umn, umx);

  double ds = 0.5;
  float fs = 0;
#pragma omp target teams distribute parallel for reduction(+ : ds, fs)
  for (int i = 1; i <= N; i++) {
    ds += i * 0.5;
    fs += (float)i;
  }
  printf("double: sum %.1f float: sum %.0f\n", ds, fs);

  double dmn = 5, dmx = -1, prod = 1;
  int land = 1, lor = 0;
#pragma omp target teams distribute parallel for reduction(min : dmn) reduction(max : dmx) \
    reduction(* : prod) reduction(&& : land) reduction(|| : lor)
  for (int i = 0; i < N; i++) {
    double v = i - 1.0;
    dmn = v < dmn ? v : dmn;
    dmx = i * 0.5 > dmx ? i * 0.5 : dmx;
    if (i % 100 == 0)
      prod *= 2;
    land = land && (i < N - 1);
    lor = lor || (i < 0);
  }
  printf("double min %g max %g product %g logical %d %d\n", dmn, dmx, prod, land, lor);

  for (int k = 0; k < 8; k++)
    h[k] = 0;
#pragma omp target teams distribute parallel for map(tofrom : h)
  for (int i = 0; i < N; i++) {
#pragma omp atomic update
    h[i % 8] += 1;
  }
  printf("histogram:");
  for (int k = 0; k < 8; k++)
    printf(" %d", h[k]);
  printf("\n");
  return 0;
}
