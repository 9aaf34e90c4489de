// A worker loop's private array that its vector loops fill and read takes one copy per worker
// in shared memory; with a constant num_workers only that many copies (here 4 x 2 KiB, where 32
// copies would not fit in the 16 KiB ptxcc gives them).
// REQUIRES: libptxrt
// RUN: %ptxcc -fopenacc -O2 %s -o %t && %run %t | FileCheck %s
// CHECK: PASS
#include <stdio.h>
#include <stdlib.h>
#define M 256
#define W 4

int main(void) {
  int n = 150, bad = 0;
  double *a = malloc(n * M * sizeof(double)), *out = malloc(n * sizeof(double));
  for (int i = 0; i < n * M; i++) a[i] = (i % 17) - 8;
  double w[M];
  #pragma acc parallel loop gang num_workers(W) vector_length(32) copyin(a[0:n*M]) copyout(out[0:n])
  for (int i = 0; i < n; i++) {
    double s = 0;
    #pragma acc loop worker private(w) reduction(+:s)
    for (int k = 0; k < W; k++) {
      #pragma acc loop vector
      for (int j = 0; j < M; j++) w[j] = a[i * M + j] * (k + 1);
      double q = 0;
      // Each lane reads what other lanes of its worker wrote.
      #pragma acc loop vector reduction(+:q)
      for (int j = 0; j < M; j++) q += w[(j + 5) % M] * j;
      s += q;
    }
    out[i] = s;
  }
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int k = 0; k < W; k++)
      for (int j = 0; j < M; j++) s += a[i * M + (j + 5) % M] * (k + 1) * j;
    if (out[i] != s) bad++;
  }
  printf("%s %d\n", bad ? "FAIL" : "PASS", bad);
  return bad;
}
