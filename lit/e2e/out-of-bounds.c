// A kernel that writes past the end of the section it mapped (a[0:10], 1000 elements written):
// a clear error naming the region's source line and a non-zero exit, never a silent corruption.
// On the emulator the array's guard page faults; on ptxsim (and a GPU) the device reports an
// illegal address, and ptxsim says where: the PTX line, block and thread.
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: not %run %t > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefixes=CHECK,%if ptxsim %{SIM%} %else %{EMU%} < %t.err
// RUN: FileCheck %s --check-prefix=OUT --allow-empty < %t.out
// SIM: ptxsim: kernel fault: 8-byte access at {{.*}} is outside every device allocation {{.*}}(in __omp_offloading_{{.*}}_main_l[[#LINE:]] at PTX line {{[0-9]+}}, block ({{[0-9]+}},0,0), thread ({{[0-9]+}},0,0))
// CHECK: ptxrt: error: {{.*}}out-of-bounds.c:[[#@LINE+11]]:1: kernel '__omp_offloading_{{[^']*}}'
// EMU-SAME: crashed on the emulator device (segmentation fault
// SIM-SAME: failed on device 0 (cuda: ptxsim {{.*}}CUDA_ERROR_ILLEGAL_ADDRESS
// OUT-NOT: done
#include <stdio.h>
#include <stdlib.h>
int main(void) {
  int n = 1000;
  double *a = malloc(n * sizeof *a);
  for (int i = 0; i < n; i++) a[i] = i;
  double *b = a;
#pragma omp target teams distribute parallel for map(tofrom : a[0:10])
  for (int i = 0; i < n; i++)
    a[i] = 2 * b[i];
  printf("done: a[5] = %g\n", a[5]);
  return 0;
}
