// Heap pointers inside a `target data` region (and after `target enter data`): the loops find their
// data present, no warning, and the results come back at the region's end.
// RUN: %ptxcc -fopenmp -O2 -fopenmp-offload-parallel-for=report %s -o %t 2> %t.report
// RUN: FileCheck %s --check-prefix=REPORT --implicit-check-not="warning: pointer" < %t.report
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY PTXRT_DEBUG=1 %t 2> %t.launches | FileCheck %s
// RUN: FileCheck %s --check-prefix=LAUNCH < %t.launches
// CHECK: target data: PASS
// CHECK: enter/exit data: PASS
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 50000;
  double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), *z = malloc(n * sizeof *z);
  for (int i = 0; i < n; i++) {
    x[i] = i;
    y[i] = 0;
    z[i] = 1;
  }
#pragma omp target data map(to: x[0:n]) map(tofrom: y[0:n])
  {
    // REPORT: target-data-pointer.c:[[@LINE+2]]: parallel for offloaded
    // LAUNCH: ptxrt: launch {{.*}}target-data-pointer.c:[[@LINE+1]]:{{[0-9]+}}: kernel
#pragma omp parallel for
    for (int i = 0; i < n; i++)
      y[i] = 2 * x[i];
    // A second loop reuses the device copies: y is still there.
    // REPORT: target-data-pointer.c:[[@LINE+2]]: parallel for offloaded
    // LAUNCH: ptxrt: launch {{.*}}target-data-pointer.c:[[@LINE+1]]:{{[0-9]+}}: kernel
#pragma omp parallel for
    for (int i = 0; i < n; i++)
      y[i] += x[i];
  }
  int ok1 = 1;
  for (int i = 0; i < n; i++)
    ok1 &= y[i] == 3.0 * i;
  printf("target data: %s\n", ok1 ? "PASS" : "FAIL");

#pragma omp target enter data map(to: z[0:n])
  // REPORT: target-data-pointer.c:[[@LINE+2]]: parallel for offloaded
  // LAUNCH: ptxrt: launch {{.*}}target-data-pointer.c:[[@LINE+1]]:{{[0-9]+}}: kernel
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    z[i] = z[i] + i;
#pragma omp target exit data map(from: z[0:n])
  int ok2 = 1;
  for (int i = 0; i < n; i++)
    ok2 &= z[i] == 1.0 + i;
  printf("enter/exit data: %s\n", ok2 ? "PASS" : "FAIL");
  free(x);
  free(y);
  free(z);
  return !(ok1 && ok2);
}
