// One variable in a `to` and a `from` map clause of one construct is mapped both ways: the
// `from` copy happens when the data leaves the device, even when the item that removes it is
// the `to` one (the runtime ends the items last to first).
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: %run %t | FileCheck %s
// CHECK: target: ok
// CHECK: target data: ok
// CHECK: PASS
#include <stdio.h>

#define N 1000
static double a[N];

int main(void) {
  int bad = 0, b1 = 0;
  for (int i = 0; i < N; i++)
    a[i] = i;
#pragma omp target teams distribute parallel for map(to : a[0:N]) map(from : a[0:N])
  for (int i = 0; i < N; i++)
    a[i] = a[i] * 3;
  for (int i = 0; i < N; i++)
    b1 += a[i] != 3.0 * i;
  printf("target: %s\n", b1 ? "FAIL" : "ok"), bad += b1;

  b1 = 0;
#pragma omp target data map(to : a[0:N]) map(from : a[0:N])
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++)
      a[i] = a[i] + 1;
  }
  for (int i = 0; i < N; i++)
    b1 += a[i] != 3.0 * i + 1;
  printf("target data: %s\n", b1 ? "FAIL" : "ok"), bad += b1;
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
