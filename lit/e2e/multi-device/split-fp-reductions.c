// -fptxcc-multi-device with the reductions the device does by compare-and-swap (no native
// atomic): floating-point min and max, products (floating point and integer), && and ||. Each
// device's copy starts at the identity (+inf, -inf, 1, 1, 0) and the host folds the parts in
// device order: min and max are exact; a floating-point product is the same every run for a
// device count but may differ from the serial one in the last bits (as + may), so it is compared
// with a relative tolerance. Checked on 1..4 devices, unequal weights, -fptxcc-hybrid, and ptxsim.
// RUN: %ptxcc -fopenmp -fptxcc-multi-device -O2 -fptxcc-info %s -o %t 2> %t.info
// RUN: FileCheck %s --check-prefix=INFO < %t.info
// RUN: env PTXRT_EMU_DEVICES=1 PTXSIM_DEVICES=1 %run %t | FileCheck %s
// RUN: env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 %run %t | FileCheck %s
// RUN: env PTXRT_EMU_DEVICES=3 PTXSIM_DEVICES=3 %run %t | FileCheck %s
// RUN: env PTXRT_EMU_DEVICES=4 PTXSIM_DEVICES=4 PTXRT_DEVICE_WEIGHTS=1,3,0,2 %run %t | FileCheck %s
// RUN: env PTXRT_EMU_DEVICES=3 PTXSIM_DEVICES=3 PTXRT_DEBUG=1 %run %t 2>&1 | FileCheck %s --check-prefix=SPLIT
// RUN: %ptxcc -fopenmp -fptxcc-hybrid -O2 %s -o %t.hybrid
// RUN: env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 PTXRT_CPU_WEIGHT=0.4 %run %t.hybrid | FileCheck %s
// INFO: split-fp-reductions.c:{{[0-9]+}}:1: split over devices: {{.*}}; the parts of arguments {{[0-9, ]+}} are combined (min, max, min, max)
// INFO: split-fp-reductions.c:{{[0-9]+}}:1: split over devices: {{.*}}; the parts of arguments {{[0-9, ]+}} are combined (*, *, *)
// INFO: split-fp-reductions.c:{{[0-9]+}}:1: split over devices: {{.*}}; the parts of arguments {{[0-9, ]+}} are combined (&&, ||, &&, ||)
// SPLIT-COUNT-3: ptxrt: split {{.*}}, 3000 iterations: [0, 1000) on device 0, [1000, 2000) on device 1, [2000, 3000) on device 2
// CHECK: min/max: 0 mismatches
// CHECK-NEXT: products: 0 mismatches
// CHECK-NEXT: logical: 0 mismatches
#include <math.h>
#include <stdio.h>

#define N 3000
static double x[N];
static float y[N];
static int flags[N];

static double value(int i) { return sin(i * 0.37) * 100.0 + (i % 7); }

int main(void) {
  for (int i = 0; i < N; i++) {
    x[i] = value(i);
    y[i] = (float)(cos(i * 0.11) * 10.0);
    flags[i] = (i % 1000) != 999 ? 1 : 0;
  }
  int bad = 0;

  double dmn = 1e300, dmx = -1e300;
  float fmn = 1e30f, fmx = -1e30f;
#pragma omp target teams distribute parallel for reduction(min : dmn) reduction(max : dmx) reduction(min : fmn) reduction(max : fmx)
  for (int i = 0; i < N; i++) {
    dmn = x[i] < dmn ? x[i] : dmn;
    dmx = x[i] > dmx ? x[i] : dmx;
    fmn = y[i] < fmn ? y[i] : fmn;
    fmx = y[i] > fmx ? y[i] : fmx;
  }
  double smn = 1e300, smx = -1e300;
  float sfmn = 1e30f, sfmx = -1e30f;
  for (int i = 0; i < N; i++) {
    smn = x[i] < smn ? x[i] : smn;
    smx = x[i] > smx ? x[i] : smx;
    sfmn = y[i] < sfmn ? y[i] : sfmn;
    sfmx = y[i] > sfmx ? y[i] : sfmx;
  }
  int b = (dmn != smn) + (dmx != smx) + (fmn != sfmn) + (fmx != sfmx);
  printf("min/max: %d mismatches\n", b);
  bad += b;

  double dp = 1.5;
  float fp = 1.0f;
  unsigned ip = 3;
#pragma omp target teams distribute parallel for reduction(* : dp, fp, ip)
  for (int i = 0; i < N; i++) {
    dp *= 1.0 + x[i] * 1e-5;
    fp *= 1.0f + y[i] * 1e-5f;
    ip *= (unsigned)(2 * i + 1);
  }
  double sdp = 1.5;
  float sfp = 1.0f;
  unsigned sip = 3;
  for (int i = 0; i < N; i++) {
    sdp *= 1.0 + x[i] * 1e-5;
    sfp *= 1.0f + y[i] * 1e-5f;
    sip *= (unsigned)(2 * i + 1);
  }
  b = (fabs(dp - sdp) > 1e-12 * fabs(sdp)) + (fabsf(fp - sfp) > 1e-4f * fabsf(sfp)) + (ip != sip);
  printf("products: %d mismatches\n", b);
  bad += b;

  // && over every flag is 0 (one per 1000 is 0: each device's part has one); || of
  // "flag is 0" is 1; && of i >= 0 is 1; || of i < 0 is 0.
  int all = 1, any = 0, all2 = 1, any2 = 0;
#pragma omp target teams distribute parallel for reduction(&& : all, all2) reduction(|| : any, any2)
  for (int i = 0; i < N; i++) {
    all = all && flags[i];
    any = any || !flags[i];
    all2 = all2 && (i >= 0);
    any2 = any2 || (i < 0);
  }
  b = (all != 0) + (any != 1) + (all2 != 1) + (any2 != 0);
  printf("logical: %d mismatches\n", b);
  bad += b;
  return bad != 0;
}
