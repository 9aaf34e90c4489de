// The runtime's side of -fptxcc-multi-device (PTXRT_DEBUG=1): the iterations cut into one
// contiguous block per device, weighted by PTXRT_DEVICE_WEIGHTS; no split with one device,
// with PTXRT_SPLIT=off, or for a construct that names its device.
// RUN: %ptxcc -fopenmp -fptxcc-multi-device -O2 %s -o %t
// RUN: env PTXRT_EMU_DEVICES=3 PTXSIM_DEVICES=3 PTXRT_DEBUG=1 %run %t 2>&1 | FileCheck %s --check-prefix=EQUAL
// RUN: env PTXRT_EMU_DEVICES=3 PTXSIM_DEVICES=3 PTXRT_DEBUG=1 PTXRT_DEVICE_WEIGHTS=2,1,1 %run %t 2>&1 | FileCheck %s --check-prefix=WEIGHTS
// RUN: env PTXRT_EMU_DEVICES=3 PTXSIM_DEVICES=3 PTXRT_DEBUG=1 PTXRT_SPLIT=off %run %t 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: env PTXRT_EMU_DEVICES=1 PTXSIM_DEVICES=1 PTXRT_DEBUG=1 %run %t 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: env PTXRT_EMU_DEVICES=3 PTXSIM_DEVICES=3 PTXRT_DEVICE_WEIGHTS=1,1 not %run %t 2>&1 | FileCheck %s --check-prefix=BADW
// EQUAL: ptxrt: split {{.*}}split-parts.c:{{[0-9]+}}:1: kernel '{{.*}}', 1000 iterations: [0, 333) on device 0, [333, 666) on device 1, [666, 1000) on device 2
// EQUAL: split-parts.c:{{[0-9]+}}:1: kernel '{{.*}}' runs on one device: the construct names device 1
// EQUAL: sum 999000
// WEIGHTS: 1000 iterations: [0, 500) on device 0, [500, 750) on device 1, [750, 1000) on device 2
// OFF: runs on one device: PTXRT_SPLIT=off
// ONE: runs on one device: one device
// BADW: PTXRT_DEVICE_WEIGHTS="1,1" gives 2 weights for 3 devices: give one per device
#include <stdio.h>

#define N 1000
static double a[N];

int main(void) {
#pragma omp target teams distribute parallel for map(from : a)
  for (int i = 0; i < N; i++)
    a[i] = 2 * i;
  double s = 0;
  for (int i = 0; i < N; i++)
    s += a[i];
#pragma omp target teams distribute parallel for map(tofrom : a) device(1)
  for (int i = 0; i < N; i++)
    a[i] += 1;
  printf("sum %.0f\n", s);
  return 0;
}
