// Negative test: a heap pointer used in a target region without any map clause (and no enclosing data
// region) is not present on the device: the runtime must stop with its "not present" error naming the
// variable and the construct's source line ("not present" / "not mapped"), and the program must exit
// with a non-zero status (not compute garbage, not crash).
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY not %t > %t.out 2>&1
// RUN: FileCheck %s < %t.out
// CHECK-NOT: reached the end
// CHECK: error: {{.*}}unmapped-pointer.c:[[@LINE+10]]{{.*}}'data'{{.*}}not {{present|mapped}}
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 1000;
  double *data = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    data[i] = 1.0;
  fflush(stdout);
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++)
    data[i] = 2.0 * i;
  printf("reached the end: data[10] = %g\n", data[10]);
  return 0;
}
