// The bytes each device receives and sends with access ranges (PTXRT_PROFILE=json): a 1-D
// stencil y[i] = x[i-1] + x[i] + x[i+1] over i = 1 .. 998 of 1000 doubles on 4 devices, parts
// [0, 249), [249, 499), [499, 748), [748, 998) of the iterations (i - 1). Device 0 receives
// x[0 .. 250] (2008 bytes) and y[1 .. 249] (1992: its write range, tofrom) and sends back y's
// 1992; device 1 receives x[249 .. 500] (2016) and y[250 .. 499] (2000). Without access ranges
// every device received both arrays whole (16000 bytes) and sent y whole back (8000).
// RUN: %ptxcc -fopenmp -fptxcc-multi-device -O2 %s -o %t
// RUN: rm -f %t.json
// RUN: env PTXRT_EMU_DEVICES=4 PTXSIM_DEVICES=4 PTXRT_PROFILE=json:%t.json %run %t | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s < %t.json
// RUN: env PTXRT_EMU_DEVICES=4 PTXSIM_DEVICES=4 PTXRT_DEBUG=1 PTXRT_PROFILE=json:%t.debug.json %run %t 2>&1 | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=WHOLE < %t.debug.json
// OUT: PASS
// CHECK: "devices": [
// CHECK-NEXT: {"id": 0, {{.*}} "h2d_bytes": 4000, "d2h_bytes": 1992, "peer_bytes": 0, "kernels": 1,
// CHECK-NEXT: {"id": 1, {{.*}} "h2d_bytes": 4016, "d2h_bytes": 2000, "peer_bytes": 0, "kernels": 1,
// CHECK-NEXT: {"id": 2, {{.*}} "h2d_bytes": 4000, "d2h_bytes": 1992, "peer_bytes": 0, "kernels": 1,
// CHECK-NEXT: {"id": 3, {{.*}} "h2d_bytes": 4016, "d2h_bytes": 2000, "peer_bytes": 0, "kernels": 1,
// PTXRT_DEBUG=1 moves whole sections (to check the write ranges):
// WHOLE: "devices": [
// WHOLE-NEXT: {"id": 0, {{.*}} "h2d_bytes": 16000, "d2h_bytes": 8000,
#include <stdio.h>

#define N 1000
static double x[N], y[N];

int main(void) {
  for (int i = 0; i < N; i++) {
    x[i] = i + 1;
    y[i] = -1;
  }
#pragma omp target teams distribute parallel for map(to : x) map(tofrom : y)
  for (int i = 1; i < N - 1; i++)
    y[i] = x[i - 1] + x[i] + x[i + 1];
  int bad = y[0] != -1 || y[N - 1] != -1;
  for (int i = 1; i < N - 1; i++)
    bad += y[i] != 3.0 * i + 3;
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
