// taskwait (with or without depend) and taskyield in a target region: device tasks are
// undeferred (lit/e2e/tasks/), so there is nothing left to wait for or yield to — they compile
// to nothing instead of being refused as "tasks".
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: %run %t | FileCheck %s
// CHECK: sum 4950 PASS
#include <stdio.h>

int main(void) {
  int a[100], sum = 0;
#pragma omp target teams distribute parallel for map(from : a)
  for (int i = 0; i < 100; i++) {
    a[i] = i;
#pragma omp taskyield
  }
#pragma omp target map(to : a) map(tofrom : sum)
  {
#pragma omp taskwait
    for (int i = 0; i < 100; i++)
      sum += a[i];
#pragma omp taskwait depend(in : sum)
  }
  printf("sum %d %s\n", sum, sum == 4950 ? "PASS" : "FAIL");
  return sum != 4950;
}
