// libptxrt's CUDA path, on ptxsim: the device errors a user meets on a GPU, each a clear message
// and (where offload is mandatory) a non-zero exit.
// REQUIRES: ptxsim
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// PTX built for sm_90 on an sm_80 GPU: the JIT log, and how to rebuild; under DEFAULT the device
// counts as unavailable (as libomptarget decides from the image) and the host runs the regions.
// RUN: env PTXSIM_ARCH=sm_80 not %run %t 2>&1 | FileCheck %s --check-prefix=ARCH
// ARCH: ptxrt: error: {{.*}}cuda-device-errors.c: cannot load the device code on device 0 (cuda: ptxsim (simulated sm_80){{.*}}CUDA_ERROR_NO_BINARY_FOR_GPU{{.*}}built for sm_90, this GPU is sm_80; rebuild with --offload-arch=sm_80 for this GPU)
// ARCH-NEXT: JIT log:
// ARCH-NEXT: ptxsim: the PTX is for sm_90, this device is sm_80
// RUN: env PTXSIM_ARCH=sm_80 OMP_TARGET_OFFLOAD=DEFAULT %t 2>&1 | FileCheck %s --check-prefix=FALLBACK
// FALLBACK: ptxrt: warning: running target regions on the host: {{.*}}cuda-device-errors.c: cannot load the device code
// FALLBACK: sum 499500 on the host
// RUN: %ptxcc -fopenmp -O2 --offload-arch=sm_80 %s -o %t.sm80
// RUN: env PTXSIM_ARCH=sm_80 %run %t.sm80 | FileCheck %s --check-prefix=SM80
// SM80: sum 499500 on the device
// Device memory exhausted: the variable, its size and what is free.
// RUN: env PTXSIM_MEMORY=4K not %run %t 2>&1 | FileCheck %s --check-prefix=OOM
// OOM: ptxrt: error: {{.*}}cuda-device-errors.c:[[#@LINE+10]]:1: out of memory on device 0 (cuda: ptxsim{{.*}}) allocating 8000 bytes for variable 'a[0:n]'; {{[0-9]+}} bytes are free; map smaller sections
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
int main(void) {
  int n = 1000;
  double *a = malloc(n * sizeof *a);
  for (int i = 0; i < n; i++) a[i] = i;
  double sum = 0;
  int on_host = 1;
#pragma omp target teams distribute parallel for map(to : a[0:n]) reduction(+ : sum) map(tofrom : on_host)
  for (int i = 0; i < n; i++) {
    sum += a[i];
    if (i == 0) on_host = omp_is_initial_device();
  }
  printf("sum %g on the %s\n", sum, on_host ? "host" : "device");
  return sum != 499500;
}
