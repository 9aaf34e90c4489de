// Negative: a malloc'ed pointer used in an offloaded `parallel for` without any data region. The
// translation warns at compile time; at run time the runtime finds the pointer's data not mapped,
// names the variable and the loop's line, and the program stops with a non-zero status instead of
// computing on host addresses.
// RUN: %ptxcc -fopenmp -O2 -fopenmp-offload-parallel-for %s -o %t 2> %t.warn
// RUN: FileCheck %s --check-prefix=WARN < %t.warn
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY not %t > %t.out 2>&1
// RUN: FileCheck %s < %t.out
// CHECK-NOT: reached the end
// CHECK: error: {{.*}}unmapped-pointer.c:[[@LINE+11]]{{.*}}'data'{{.*}}not {{present|mapped}}
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 1000;
  double *data = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    data[i] = 1.0;
  fflush(stdout);
  // WARN: unmapped-pointer.c:[[@LINE+3]]:5: warning: pointer 'data' is used in an offloaded parallel loop; map it with a 'target data' region or the loop will fail at run time if it is not present
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    data[i] = 2.0 * i;
  printf("reached the end: data[10] = %g\n", data[10]);
  return 0;
}
