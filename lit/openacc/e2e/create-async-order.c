// acc_create_async(x, n, q) goes on queue q after what is already there. Here an
// `enter data copyin(x) async(1)` waits behind a slow kernel on queue 1; a create that ran at
// once would allocate x first, and the queued copyin would then find x present and copy
// nothing, leaving the kernel to read uninitialised device memory.
// REQUIRES: libptxrt
// RUN: %ptxcc -fopenacc %s -o %t && %run %t | FileCheck %s
// CHECK: PASS
#include <stdio.h>
#include <openacc.h>
#define N (1 << 15)
#define REPS 300
static double x[N], y[N];

#pragma acc routine seq
static double slow(double v) {
  double s = 0;
  for (int r = 0; r < REPS; r++) s += 1e-9 * r;
  return v + (s > 1e9);
}

int main(void) {
  for (int i = 0; i < N; i++) { x[i] = i; y[i] = i; }
  #pragma acc enter data copyin(y) async(1)
  #pragma acc parallel loop present(y) async(1)
  for (int i = 0; i < N; i++) y[i] = slow(y[i] + 1);
  #pragma acc enter data copyin(x) async(1)
  acc_create_async(x, sizeof x, 1);
  #pragma acc parallel loop present(x) async(1)
  for (int i = 0; i < N; i++) x[i] += 1;
  #pragma acc update self(x) async(1)
  #pragma acc exit data copyout(y) async(1)
  #pragma acc wait(1)
  int bad = 0;
  for (int i = 0; i < N && !bad; i++)
    if (x[i] != i + 1.0) { printf("x[%d] = %g, want %g\n", i, x[i], i + 1.0); bad = 1; }
  // Two references to x (copyin and create): one delete leaves it present.
  acc_delete(x, sizeof x);
  if (!acc_is_present(x, sizeof x)) { printf("x gone after one of its two deletes\n"); bad = 1; }
  acc_delete(x, sizeof x);
  printf(bad ? "FAIL\n" : "PASS\n");
  return bad;
}
