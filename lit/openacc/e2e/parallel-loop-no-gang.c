// Combined parallel loops with worker/vector levels and no gang: every iteration runs once per
// gang (one gang here), spread over the gang's threads; reductions and collapse included.
// REQUIRES: libptxrt
// RUN: %ptxcc -fopenacc %s -o %t && %run %t | FileCheck %s
// CHECK: PASS
#include <stdio.h>
#define N 1000
int main(void) {
  double a[N], s = 0, t[10];
  int cnt = 0, bad = 0;
  for (int i = 0; i < N; i++) a[i] = i;
  #pragma acc parallel loop vector vector_length(64) copy(a)
  for (int i = 0; i < N; i++) a[i] += 1;
  #pragma acc parallel loop worker num_workers(8) copy(a)
  for (int i = 0; i < N; i++) a[i] *= 2;
  #pragma acc parallel loop vector(32) reduction(+:s) copyin(a)
  for (int i = 0; i < N; i++) s += a[i];
  #pragma acc parallel loop worker vector reduction(+:cnt) copyin(a)
  for (int i = 0; i < N; i++) cnt += a[i] > 1000;
  #pragma acc parallel loop vector collapse(2) copyout(t)
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 5; j++) t[i * 5 + j] = i * 10 + j;
  for (int i = 0; i < N; i++) if (a[i] != 2.0 * (i + 1)) bad |= 1;
  if (s != 2.0 * N * (N + 1) / 2) bad |= 2;
  if (cnt != N - 500) bad |= 4;
  if (t[7] != 12) bad |= 8;
  printf("%s %d\n", bad ? "FAIL" : "PASS", bad);
  return bad;
}
