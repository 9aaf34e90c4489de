// Negative test: map(present: ...) of an array that is not mapped must stop with the runtime's "not
// present" error naming the variable, exit status non-zero.
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY not %t > %t.out 2>&1
// RUN: FileCheck %s < %t.out
// CHECK-NOT: reached the end
// CHECK: error: {{.*}}present-section.c:[[@LINE+9]]{{.*}}'x[0:n]'{{.*}}not present
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 100;
  float *x = malloc(n * sizeof(float));
  for (int i = 0; i < n; i++)
    x[i] = i;
#pragma omp target teams distribute parallel for map(present, tofrom : x[0:n])
  for (int i = 0; i < n; i++)
    x[i] *= 2.0f;
  printf("reached the end: x[1] = %g\n", x[1]);
  return 0;
}
