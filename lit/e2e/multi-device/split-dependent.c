// A loop whose iterations are not independent, compiled with -fptxcc-multi-device: the parts
// write different values to the same bytes, and the runtime says so instead of keeping one of
// them (every iteration in the first half writes 1 to flag[0], every one in the second half 2).
// RUN: %ptxcc -fopenmp -fptxcc-multi-device -O2 %s -o %t
// RUN: env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 not %run %t 2>&1 | FileCheck %s
// RUN: env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 PTXRT_SPLIT=off %run %t | FileCheck %s --check-prefix=OFF
// -fptxcc-hybrid: the host part is checked the same way against the devices' parts.
// RUN: %ptxcc -fopenmp -fptxcc-hybrid -O2 %s -o %t.hybrid
// RUN: env PTXRT_CPU_WEIGHT=0.5 not %run %t.hybrid 2>&1 | FileCheck %s --check-prefix=HYBRID
// HYBRID: split-dependent.c:{{[0-9]+}}:1: kernel '{{.*}}' split over devices: device 0 and the host wrote different values to byte 0 of 'flag': the loop's iterations are not independent.
// CHECK: split-dependent.c:{{[0-9]+}}:1: kernel '{{.*}}' split over devices: devices 0 and 1 wrote different values to byte 0 of 'flag': the loop's iterations are not independent. Run it on one device (PTXRT_SPLIT=off, or compile without -fptxcc-multi-device)
// OFF: flag {{[12]}}
#include <stdio.h>

#define N 1000
static int flag[1];

int main(void) {
#pragma omp target teams distribute parallel for map(tofrom : flag)
  for (int i = 0; i < N; i++)
    flag[0] = i < N / 2 ? 1 : 2;
  printf("flag %d\n", flag[0]);
  return 0;
}
