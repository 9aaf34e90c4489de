// The emulator's kernels use the one host copy of a declare-target global, so a second emulated
// device cannot have its own: under PTXRT_EMU_DEVICES=2 device 1 is left out with a message that
// says why and what to do (an error under OMP_TARGET_OFFLOAD=MANDATORY), never a copy silently shared between devices.
// REQUIRES: libptxrt
// UNSUPPORTED: ptxsim
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: env PTXRT_DEVICE=emu PTXRT_EMU_DEVICES=2 %t 2>&1 | FileCheck %s --check-prefix=DEFAULT
// RUN: env PTXRT_DEVICE=emu PTXRT_EMU_DEVICES=2 OMP_TARGET_OFFLOAD=MANDATORY not %t 2>&1 | FileCheck %s --check-prefix=MANDATORY
// DEFAULT: warning: leaving that device out: {{.*}}emulator-globals.c: cannot load the device code on device 1 (emulator{{.*}}): emulated device 1 cannot have its own copy of the declare-target global 'g' {{.*}}run with PTXRT_EMU_DEVICES=1, or on ptxsim (PTXSIM_DEVICES=N)
// DEFAULT: devices: 1 g: 5
// MANDATORY: error: {{.*}}emulated device 1 cannot have its own copy of the declare-target global 'g'
#include <omp.h>
#include <stdio.h>

int g = 4;
#pragma omp declare target(g)

int main(void) {
  int r = 0;
#pragma omp target map(from : r)
  r = g + 1;
  printf("devices: %d g: %d\n", omp_get_num_devices(), r);
  return r != 5;
}
