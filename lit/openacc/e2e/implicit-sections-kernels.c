// A kernels region with two loops over pointers that no data clause names, the lecture step
// ("02_kernels") that relies on nvc inferring the sections from the loop bounds: the first
// loop writes a and b, the second reads them into c (offset by one element). A third loop
// inside a data region uses its present copy as it is: the host's c stays untouched until the
// region ends.
// REQUIRES: libptxrt
// RUN: %ptxcc -fopenacc %s -o %t && %run %t | FileCheck %s
// RUN: %ptxcc -fopenacc -fptxcc-multi-device %s -o %t.md && env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 %run %t.md | FileCheck %s
// CHECK: c[0] = 2 c[n-2] = 2996
// CHECK: PASS
#include <stdio.h>
#include <stdlib.h>

static void calc(int n, float *restrict a, float *restrict b, float *restrict c) {
#pragma acc kernels
  {
    for (int i = 0; i < n; i++) {
      a[i] = 1.0f + i;
      b[i] = 2.0f * i;
    }
    for (int i = 0; i < n - 1; i++)
      c[i] = a[i + 1] + b[i];
  }
}

static void bump(int n, float *restrict c) {
#pragma acc parallel loop
  for (int i = 0; i < n; i++)
    c[i] += 1.0f;
}

int main(void) {
  int n = 1000;
  float *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c);
  for (int i = 0; i < n; i++)
    a[i] = b[i] = c[i] = -1.0f;
  calc(n, a, b, c);
  printf("c[0] = %g c[n-2] = %g\n", c[0], c[n - 2]);
  int bad = 0;
  for (int i = 0; i < n; i++) {
    bad += a[i] != 1.0f + i || b[i] != 2.0f * i;
    // The last element of c is not written: it keeps its value.
    bad += i < n - 1 ? c[i] != (2.0f + i) + 2.0f * i : c[i] != -1.0f;
  }
  // Present data: the loop updates the device copy; the host copy changes at the region's end.
#pragma acc data copy(c[0:n])
  {
    bump(n, c);
    bad += c[0] != 2.0f;
  }
  bad += c[0] != 3.0f || c[n - 1] != 0.0f;
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
