// A pipeline of async updates and kernels inside a data region, waited for only after the
// region (as NVIDIA's OpenACC training code does): the region's data stays on the device until
// that work is done. OpenMP's target data would unmap it as soon as the loop had queued the
// work, and the queued updates failed with 'not present'.
// REQUIRES: libptxrt
// RUN: %ptxcc -fopenacc -fptxcc-info %s -o %t 2>&1 | FileCheck %s --check-prefix=INFO
// RUN: %run %t | FileCheck %s
// INFO: data-async-inside.c:[[@LINE+12]]: data: waits at its end for the async work inside it
// CHECK: PASS
#include <stdio.h>
#include <stdlib.h>
#define N 4096
#define BLOCKS 16

int main(void) {
  float *in = malloc(N * sizeof(float)), *out = malloc(N * sizeof(float));
  int bad = 0, rows = N / BLOCKS;
  for (int i = 0; i < N; i++) { in[i] = i; out[i] = -1; }
  #pragma acc data create(in[0:N], out[0:N])
  for (int b = 0; b < BLOCKS; b++) {
    int lo = b * rows;
    #pragma acc update device(in[lo:rows]) async(b % 3)
    #pragma acc parallel loop present(in[0:N], out[0:N]) async(b % 3)
    for (int i = lo; i < lo + rows; i++) out[i] = 2 * in[i] + 1;
    #pragma acc update self(out[lo:rows]) async(b % 3)
  }
  #pragma acc wait
  for (int i = 0; i < N; i++) if (out[i] != 2.0f * i + 1) { bad = 1; break; }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad;
}
