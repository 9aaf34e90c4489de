// map(to: s) copies the struct but not the array its pointer member points to: in the kernel s.v
// is a host address. A GPU faults; ptxsim does too, and names the kernel, the PTX line, block and
// thread. (The emulator's kernels run in the host's address space, so there the writes land in
// host memory: that is why this runs on ptxsim only.)
// REQUIRES: ptxsim
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: not %run %t > %t.out 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: FileCheck %s --check-prefix=OUT --allow-empty < %t.out
// CHECK: ptxsim: kernel fault: 8-byte access at {{.*}} is outside every device allocation (a host pointer{{.*}}(in __omp_offloading_{{.*}} at PTX line {{[0-9]+}}, block ({{[0-9]+}},0,0), thread ({{[0-9]+}},0,0))
// CHECK: ptxrt: error: {{.*}}host-pointer-member.c:[[#@LINE+7]]:1: kernel '{{[^']*}}' {{.*}}CUDA_ERROR_ILLEGAL_ADDRESS
// OUT-NOT: {{[0-9]}}
#include <stdio.h>
#include <stdlib.h>
typedef struct { int n; double *v; } vec;
int main(void) {
  vec s = {100, malloc(100 * sizeof(double))};
#pragma omp target teams distribute parallel for map(to : s)
  for (int i = 0; i < s.n; i++)
    s.v[i] = i;
  printf("%g\n", s.v[5]);
  return 0;
}
