// Async work queued by a function called inside a data region, waited for only after the
// region: the region's data stays until that work has run (the runtime's end of a structured
// data region waits for the async tasks queued so far). It used to be released when the region
// ended, before the queued tasks started, which then stopped with 'not present'.
// REQUIRES: libptxrt
// RUN: %ptxcc -fopenacc %s -o %t && %run %t | FileCheck %s
// CHECK: PASS
#include <stdio.h>
#include <stdlib.h>
#define N 4096
static void stage(float *in, float *out, int lo, int rows, int q) {
  #pragma acc update device(in[lo:rows]) async(q)
  #pragma acc parallel loop present(in[0:N], out[0:N]) async(q)
  for (int i = lo; i < lo + rows; i++) out[i] = 2 * in[i] + 1;
  #pragma acc update self(out[lo:rows]) async(q)
}
int main(void) {
  float *in = malloc(N * sizeof(float)), *out = malloc(N * sizeof(float));
  int bad = 0;
  for (int i = 0; i < N; i++) { in[i] = i; out[i] = -1; }
  #pragma acc data create(in[0:N], out[0:N])
  for (int b = 0; b < 16; b++) stage(in, out, b * (N / 16), N / 16, b % 3);
  #pragma acc wait
  for (int i = 0; i < N; i++) if (out[i] != 2.0f * i + 1) { bad = 1; break; }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad;
}
