// An inner loop's reduction into a scalar that each iteration of the gang loop assigns first,
// with no private clause (NPB-ACC's CG: `d = 0.0;` then `loop worker vector reduction(+:d)`):
// the gang loop makes it private, so the reduction combines into each gang's copy and is not
// hoisted to the construct (where clang rejects a reduction of a private variable). Each row
// is compared with the serial sum (to rounding) of a sparse matrix-vector product.
// REQUIRES: libptxrt
// RUN: %ptxcc -fopenacc -O2 %s -o %t && %run %t | FileCheck %s
// CHECK: rows: ok
#include <math.h>
#include <stdio.h>
#define N 300

int main(void) {
  static int rowstr[N + 1], col[N * 8];
  static double a[N * 8], x[N], r[N];
  int nnz = 0;
  for (int j = 0; j < N; j++) {
    rowstr[j] = nnz;
    for (int k = 0; k < j % 8 + 1; k++, nnz++) {
      col[nnz] = (j * 7 + k * 13) % N;
      a[nnz] = 1.0 / (k + 1);
    }
    x[j] = j % 5;
  }
  rowstr[N] = nnz;
  int j, k, lo, hi;
  double d;
#pragma acc parallel loop gang num_gangs(N) num_workers(4) vector_length(32) copyin(rowstr, col, a, x) copyout(r)
  for (j = 0; j < N; j++) {
    lo = rowstr[j];
    hi = rowstr[j + 1];
    d = 0.0;
#pragma acc loop worker vector reduction(+ : d)
    for (k = lo; k < hi; k++)
      d += a[k] * x[col[k]];
    r[j] = d;
  }
  int ok = 1;
  for (int i = 0; i < N; i++) {
    double s = 0.0;
    for (int q = rowstr[i]; q < rowstr[i + 1]; q++)
      s += a[q] * x[col[q]];
    // The threads add in another order than the serial loop.
    if (fabs(r[i] - s) > 1e-12 * fabs(s)) {
      printf("row %d: %g, serial %g\n", i, r[i], s);
      ok = 0;
      break;
    }
  }
  printf("rows: %s\n", ok ? "ok" : "FAILED");
  return 0;
}
