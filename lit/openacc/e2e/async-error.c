// A runtime error in async work (an update of data that is not present, on a queue) ends the
// program with status 1 and the message, after what it printed; the error used to be reported
// from libomp's helper thread through exit(), whose libomp handler waited for that very
// thread: the program hung and its buffered output was lost.
// REQUIRES: libptxrt
// RUN: %ptxcc -fopenacc %s -o %t
// RUN: not timeout 60 env OMP_TARGET_OFFLOAD=MANDATORY %t 2>&1 | FileCheck %s
// CHECK-DAG: before
// CHECK-DAG: async-error.c:[[@LINE+8]]:1: variable 'a[0:n]' {{.*}} is not present on device
// CHECK-NOT: after
#include <stdio.h>
#include <stdlib.h>
int main(void) {
  int n = 100;
  double *a = malloc(n * sizeof(double));
  printf("before\n");
  #pragma acc update device(a[0:n]) async(1)
  #pragma acc wait(1)
  printf("after\n");
  return 0;
}
