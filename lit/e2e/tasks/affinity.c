// task affinity(…) in a target region (OpenMP 5.2 §12.5.1): a hint, which the undeferred
// device task satisfies by running where it is created; the results are the host's.
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: %run %t | FileCheck %s
// RUN: env OMP_TARGET_OFFLOAD=DISABLED %t | FileCheck %s
// CHECK: affinity: 0 3 6 9 ok
// CHECK-NEXT: PASS
#include <stdio.h>

#define N 64

int main(void) {
  int a[N], bad = 0;
  for (int i = 0; i < N; i++)
    a[i] = i;
#pragma omp target map(tofrom : a)
#pragma omp parallel
#pragma omp single
  for (int i = 0; i < N; i += 8) {
#pragma omp task affinity(a[i : 8]) firstprivate(i)
    for (int j = i; j < i + 8; j++)
      a[j] *= 3;
  }
  for (int i = 0; i < N; i++)
    bad += a[i] != 3 * i;
  printf("affinity: %d %d %d %d %s\n", a[0], a[1], a[2], a[3], bad ? "FAIL" : "ok");
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
