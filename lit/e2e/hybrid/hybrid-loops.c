// -fptxcc-hybrid: each split loop's last iterations run on the host's cores (the region's host
// version, on its own copy of the data) while the devices run the rest. Every loop shape gives
// the serial answer at every host share: PTXRT_CPU_WEIGHT 0 (devices only), 0.25, 0.5, 1 (host
// only), tuned (unset), with one and two devices: a lower bound and a step, collapse(2), a long
// counter, lastprivate, reductions, and a map(to:) array the loop writes, whose host copy stays
// as it was (the host part writes its own copy, as a device would).
// RUN: %ptxcc -fopenmp -fptxcc-hybrid -O2 %s -o %t
// RUN: env PTXRT_CPU_WEIGHT=0 %run %t | FileCheck %s
// RUN: env PTXRT_CPU_WEIGHT=0.25 %run %t | FileCheck %s
// RUN: env PTXRT_CPU_WEIGHT=0.5 %run %t | FileCheck %s
// RUN: env PTXRT_CPU_WEIGHT=1 %run %t | FileCheck %s
// RUN: %run %t | FileCheck %s
// RUN: env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 PTXRT_CPU_WEIGHT=0.5 %run %t | FileCheck %s
// RUN: env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 %run %t | FileCheck %s
// RUN: env PTXRT_CPU_WEIGHT=0.25 PTXRT_DEBUG=1 %run %t 2>&1 | FileCheck %s --check-prefix=PARTS
// RUN: env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 PTXRT_CPU_WEIGHT=0.5 PTXRT_DEBUG=1 %run %t 2>&1 | FileCheck %s --check-prefix=PARTS2
// RUN: env PTXRT_CPU_WEIGHT=1 PTXRT_DEBUG=1 %run %t 2>&1 | FileCheck %s --check-prefix=HOSTONLY
// RUN: env PTXRT_CPU_WEIGHT=0 PTXRT_DEBUG=1 %run %t 2>&1 | FileCheck %s --check-prefix=NOHOST
// RUN: env PTXRT_CPU_WEIGHT=2 %run not %t 2>&1 | FileCheck %s --check-prefix=BADWEIGHT
// CHECK: step: PASS
// CHECK-NEXT: collapse: PASS
// CHECK-NEXT: long: PASS
// CHECK-NEXT: lastprivate: 1999 PASS
// CHECK-NEXT: reductions: 1000000 -5 1998 999000 PASS
// CHECK-NEXT: map(to:) written: host copy 7 PASS
// PARTS: ptxrt: split {{.*}}hybrid-loops.c:{{[0-9]+}}:1: kernel '{{.*}}', 1000 iterations: [0, 750) on device 0, [750, 1000) on the host
// PARTS2: 1000 iterations: [0, 250) on device 0, [250, 500) on device 1, [500, 1000) on the host
// HOSTONLY: 1000 iterations: [0, 1000) on the host
// NOHOST: runs on one device: the host's share of 1000 iterations is none
// BADWEIGHT: PTXRT_CPU_WEIGHT="2" is not a number from 0 (devices only) to 1 (host only)
#include <stdio.h>

#define N 1000

static double a[N], b[N], g[40][50];
static long big[N];
static int t[N];

int main(void) {
  for (int i = 0; i < N; i++) {
    a[i] = i * 0.5;
    t[i] = 7;
  }
  int ok = 1;
  // A lower bound and a step: iterations 3, 5, ..., 2N+1.
#pragma omp target teams distribute parallel for map(to : a) map(tofrom : b)
  for (int i = 3; i < 2 * N + 3; i += 2)
    b[(i - 3) / 2] = 2.0 * a[(i - 3) / 2] + 1.0;
  for (int i = 0; i < N; i++)
    ok &= b[i] == 2.0 * (i * 0.5) + 1.0;
  printf("step: %s\n", ok ? "PASS" : "FAIL");

  ok = 1;
#pragma omp target teams distribute parallel for collapse(2) map(tofrom : g)
  for (int i = 0; i < 40; i++)
    for (int j = 0; j < 50; j++)
      g[i][j] = i * 100 + j;
  for (int i = 0; i < 40; i++)
    for (int j = 0; j < 50; j++)
      ok &= g[i][j] == i * 100 + j;
  printf("collapse: %s\n", ok ? "PASS" : "FAIL");

  ok = 1;
#pragma omp target teams distribute parallel for map(tofrom : big)
  for (long i = 0; i < N; i++)
    big[i] = i * 3000000000L;
  for (long i = 0; i < N; i++)
    ok &= big[i] == i * 3000000000L;
  printf("long: %s\n", ok ? "PASS" : "FAIL");

  int last = -1;
#pragma omp target teams distribute parallel for lastprivate(last) map(tofrom : last)
  for (int i = 0; i < N; i++)
    last = 2 * i + 1;
  printf("lastprivate: %d %s\n", last, last == 2 * N - 1 ? "PASS" : "FAIL");

  long sum = 0;
  int mn = -5, mx = 0;
  double dsum = 0;
#pragma omp target teams distribute parallel for reduction(+ : sum, dsum) reduction(min : mn) \
    reduction(max : mx)
  for (int i = 0; i < N; i++) {
    sum += 2 * i + 1;
    mn = i < mn ? i : mn;
    mx = 2 * i > mx ? 2 * i : mx;
    dsum += 2.0 * i;
  }
  printf("reductions: %ld %d %d %.0f %s\n", sum, mn, mx, dsum,
         sum == (long)N * N && mn == -5 && mx == 2 * N - 2 && dsum == (double)N * (N - 1) ? "PASS"
                                                                                         : "FAIL");

  // The loop writes t, mapped to only: the devices' and the host part's copies change, the
  // host's does not.
  long seen = 0;
#pragma omp target teams distribute parallel for map(to : t) reduction(+ : seen)
  for (int i = 0; i < N; i++) {
    t[i] += i;
    seen += t[i];
  }
  ok = seen == 7L * N + (long)N * (N - 1) / 2;
  for (int i = 0; i < N; i++)
    ok &= t[i] == 7;
  printf("map(to:) written: host copy %d %s\n", t[5], ok ? "PASS" : "FAIL");
  return 0;
}
