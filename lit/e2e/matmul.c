// Naive matrix product on the device (one thread per element of C, collapse(2)), compared with the host
// product; small integer entries make every result exact.
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t | FileCheck %s
// CHECK: PASS
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int n = 97, m = 61, p = 83; /* C[n][p] = A[n][m] B[m][p] */
  double *a = malloc(n * m * sizeof(double)), *b = malloc(m * p * sizeof(double));
  double *c = malloc(n * p * sizeof(double)), *hc = malloc(n * p * sizeof(double));
  for (int i = 0; i < n * m; i++)
    a[i] = (i % 9) - 4;
  for (int i = 0; i < m * p; i++)
    b[i] = (i % 7) - 3;
#pragma omp target teams distribute parallel for collapse(2) map(to : a[0:n * m], b[0:m * p]) map(from : c[0:n * p])
  for (int i = 0; i < n; i++)
    for (int j = 0; j < p; j++) {
      double s = 0.0;
      for (int k = 0; k < m; k++)
        s += a[i * m + k] * b[k * p + j];
      c[i * p + j] = s;
    }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < p; j++) {
      double s = 0.0;
      for (int k = 0; k < m; k++)
        s += a[i * m + k] * b[k * p + j];
      hc[i * p + j] = s;
    }
  long bad = 0;
  for (int i = 0; i < n * p; i++)
    bad += c[i] != hc[i];
  printf("%ld of %d elements differ\n%s\n", bad, n * p, bad ? "FAIL" : "PASS");
  return bad != 0;
}
