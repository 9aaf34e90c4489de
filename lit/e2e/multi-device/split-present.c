// `present` data under -fptxcc-multi-device: a construct whose arrays a data region holds on
// its device splits over the devices (gang-vector.c); one whose `present` data is not there
// stays whole and is the error OpenACC and OpenMP ask for, naming the variable and the device,
// on 1 device and on 2.
// RUN: %ptxcc -fopenacc -fptxcc-multi-device -O2 %s -o %t
// RUN: env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 PTXRT_DEBUG=1 %run %t 2>&1 | FileCheck %s --check-prefix=OK
// RUN: env PTXRT_EMU_DEVICES=1 PTXSIM_DEVICES=1 not %run %t missing 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 not %run %t missing 2>&1 | FileCheck %s --check-prefix=MISSING
// OK: ptxrt: split {{.*}}, 100 iterations: [0, 50) on device 0, [50, 100) on device 1
// OK: a[5] = 5
// MISSING: error: {{.*}}split-present.c:[[@LINE+8]]:1: variable 'a[0:100]' {{.*}} is not present on device 0
#include <stdio.h>
#include <string.h>

static double a[100];

static void fill(void) {
  // The one compute construct, with and without a data region around it.
#pragma acc parallel loop present(a[0:100])
  for (int i = 0; i < 100; i++)
    a[i] = i;
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "missing") == 0) {
    fill();
  } else {
#pragma acc data copy(a)
    fill();
  }
  printf("a[5] = %g\n", a[5]);
  return 0;
}
