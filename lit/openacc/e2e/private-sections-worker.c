// A worker loop's private section whose vector loops run on the lanes of the worker's warp:
// one copy per worker, which all its lanes fill and read (OpenACC 3.3, 2.9.10).
// REQUIRES: libptxrt
// RUN: %ptxcc -fopenacc %s -o %t && %run %t | FileCheck %s
// CHECK: PASS
#include <stdio.h>
#include <stdlib.h>
#define M 64
int main(void) {
  int n = 40, bad = 0;
  double *a = malloc(n * 4 * M * sizeof(double)), *out = malloc(n * 4 * sizeof(double));
  double *w = malloc(M * sizeof(double));
  for (int i = 0; i < n * 4 * M; i++) a[i] = i % 11;
  #pragma acc parallel loop gang num_workers(4) vector_length(32) copyin(a[0:n*4*M]) copyout(out[0:n*4])
  for (int i = 0; i < n; i++) {
    #pragma acc loop worker private(w[0:M])
    for (int k = 0; k < 4; k++) {
      #pragma acc loop vector
      for (int j = 0; j < M; j++) w[j] = a[(i * 4 + k) * M + j];
      double q = 0;
      #pragma acc loop vector reduction(+:q)
      for (int j = 0; j < M; j++) q += w[(j + 3) % M] * j;
      out[i * 4 + k] = q;
    }
  }
  for (int i = 0; i < n * 4; i++) {
    double q = 0;
    for (int j = 0; j < M; j++) q += a[i * M + (j + 3) % M] * j;
    if (q != out[i]) bad++;
  }
  printf(bad ? "FAIL %d\n" : "PASS\n", bad);
  return bad;
}
