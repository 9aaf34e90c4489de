// A variable in two data clauses of one construct gets both actions (OpenACC 3.3, 2.7):
// copyin(x) copyout(x) copies in and back out, create(zero: x) copyout(x) starts from zeros
// and copies out, whichever clause the runtime reaches last at the exit.
// REQUIRES: libptxrt
// RUN: %ptxcc -fopenacc %s -o %t && %run %t | FileCheck %s
// CHECK: scalar reduction: ok
// CHECK: array: ok
// CHECK: create zero + copyout: ok
// CHECK: data region: ok
// CHECK: PASS
#include <stdio.h>
#include <stdlib.h>
int main(void) {
  int n = 1000, bad = 0, b1;
  double s = 5;
#pragma acc parallel loop copyin(s) copyout(s) reduction(+ : s)
  for (int i = 0; i < n; i++)
    s += 1;
  printf("scalar reduction: %s\n", s == n + 5 ? "ok" : "FAIL"), bad += s != n + 5;

  double *a = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    a[i] = i;
#pragma acc parallel loop copyin(a[0:n]) copyout(a[0:n])
  for (int i = 0; i < n; i++)
    a[i] = a[i] * 2 + 1;
  b1 = 0;
  for (int i = 0; i < n; i++)
    b1 += a[i] != 2.0 * i + 1;
  printf("array: %s\n", b1 ? "FAIL" : "ok"), bad += b1;

  for (int i = 0; i < n; i++)
    a[i] = 7;
#pragma acc parallel loop create(zero : a[0:n]) copyout(a[0:n])
  for (int i = 0; i < n; i++)
    a[i] += i;
  b1 = 0;
  for (int i = 0; i < n; i++)
    b1 += a[i] != i;
  printf("create zero + copyout: %s\n", b1 ? "FAIL" : "ok"), bad += b1;

  for (int i = 0; i < n; i++)
    a[i] = i;
#pragma acc data copyin(a[0:n]) copyout(a[0:n])
  {
#pragma acc parallel loop
    for (int i = 0; i < n; i++)
      a[i] = -a[i];
  }
  b1 = 0;
  for (int i = 0; i < n; i++)
    b1 += a[i] != -i;
  printf("data region: %s\n", b1 ? "FAIL" : "ok"), bad += b1;
  printf("%s\n", bad ? "FAIL" : "PASS");
  free(a);
  return bad != 0;
}
