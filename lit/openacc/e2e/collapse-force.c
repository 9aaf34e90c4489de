// collapse(force:n) (OpenACC 3.3, 2.9.1): loops that are not tightly nested are collapsed, the
// code between them running in the innermost loop: on combined and separate loop constructs,
// at gang, gang-worker-vector and kernels level, with loop variables declared outside, private
// arrays and temporaries in the intervening code, three levels, a reduction, and a triangle
// (bounds from the outer variable). Bounds set by the intervening code are an error
// (diag-collapse.c).
// REQUIRES: libptxrt
// RUN: %ptxcc -fopenacc %s -o %t && %run %t | FileCheck %s
// CHECK: PASS
#include <stdio.h>
#include <stdlib.h>
static int bad;
static void expect(const char *what, double got, double want) {
  if (got != want && bad++ < 10) printf("%s: %g, want %g\n", what, got, want);
}
int main(void) {
  int n = 53, m = 41, i, j, k;
  double s, t[2];
  double *a = malloc(n * m * sizeof(double)), *b = malloc(n * sizeof(double));
  double *c = calloc(n * n, sizeof(double));
  for (i = 0; i < n; i++) b[i] = i;

  #pragma acc parallel loop collapse(force:2) copyout(a[0:n*m]) copyin(b[0:n])
  for (i = 0; i < n; i++) {
    s = b[i] * 10;
    for (j = 0; j < m; j++) a[i * m + j] = s + j;
  }
  for (i = 0; i < n; i++) for (j = 0; j < m; j++) expect("combined", a[i * m + j], i * 10 + j);

  #pragma acc parallel copyout(a[0:n*m]) copyin(b[0:n])
  {
    #pragma acc loop gang worker vector collapse(force:2) private(t)
    for (int x = 0; x < n; x++) {
      t[0] = b[x];
      t[1] = 2 * b[x];
      for (int y = 0; y < m; y++) a[x * m + y] = t[0] + t[1] + y;
    }
  }
  for (i = 0; i < n; i++) for (j = 0; j < m; j++) expect("private array", a[i * m + j], 3 * i + j);

  #pragma acc kernels loop collapse(force:2) copyout(a[0:n*m]) copyin(b[0:n])
  for (i = 0; i < n; i++) {
    double loc[3] = {b[i], 1, 2};
    for (j = 0; j < m; j++) a[i * m + j] = loc[0] * loc[2] + j;
  }
  for (i = 0; i < n; i++) for (j = 0; j < m; j++) expect("kernels", a[i * m + j], 2 * i + j);

  #pragma acc parallel loop collapse(force:3) copyout(a[0:n*m]) copyin(b[0:n])
  for (i = 0; i < n; i++) {
    s = b[i] + 1;
    for (j = 0; j < m; j++) {
      double u = s * 100 + j;
      for (k = 0; k < 1; k++) a[i * m + j] = u + k;
    }
  }
  for (i = 0; i < n; i++) for (j = 0; j < m; j++) expect("three levels", a[i * m + j], (i + 1) * 100 + j);

  double tot = 0;
  #pragma acc parallel loop gang vector collapse(force:2) reduction(+:tot) copyin(b[0:n])
  for (i = 0; i < n; i++) {
    double w = b[i];
    for (j = 0; j < m; j++) tot += w * j;
  }
  expect("reduction", tot, (double)(n * (n - 1) / 2) * (m * (m - 1) / 2));

  #pragma acc parallel loop collapse(force:2) copy(c[0:n*n])
  for (i = 0; i < n; i++) {
    s = i;
    for (j = i; j < n; j++) c[i * n + j] = s + j;
  }
  for (i = 0; i < n; i++) for (j = 0; j < n; j++) expect("triangle", c[i * n + j], j >= i ? i + j : 0);

  free(a); free(b); free(c);
  printf(bad ? "FAIL\n" : "PASS\n");
  return bad != 0;
}
