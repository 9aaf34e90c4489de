// Reductions over C's complex types in OpenACC compute constructs (OpenACC 3.3 §2.5.15: + and *
// take complex operands), at gang, worker and vector level; long double, which the GPU does not
// have, is a located error at the clause and at the use, never an abort of the back end.
// REQUIRES: libptxrt
// RUN: %ptxcc -fopenacc %s -o %t && %run %t | FileCheck %s
// RUN: not %ptxcc -fopenacc -DLONG_DOUBLE -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=LD
// CHECK: sum 4950 9900
// CHECK-NEXT: product 1 0
// CHECK-NEXT: rows 4950 -4950
// CHECK-NEXT: PASS
#include <complex.h>
#include <stdio.h>
#define N 100

int main(void) {
#ifdef LONG_DOUBLE
  long double s = 0;
  // LD: complex-reduction.c:[[@LINE+1]]:{{[0-9]+}}: error: ptxcc does not support 'long double' (or __float128) in target regions
#pragma acc parallel loop reduction(+ : s)
  for (int i = 0; i < N; i++)
    s += i;
  return (int)s;
#else
  double x[N];
  for (int i = 0; i < N; i++)
    x[i] = i;
  int ok = 1;

  double _Complex c = 0;
#pragma acc parallel loop gang vector reduction(+ : c) copyin(x)
  for (int i = 0; i < N; i++)
    c += x[i] + 2 * x[i] * I;
  printf("sum %g %g\n", creal(c), cimag(c));
  ok &= creal(c) == 4950 && cimag(c) == 9900;

  float _Complex p = 1;
#pragma acc parallel loop reduction(* : p)
  for (int i = 0; i < 8; i++)
    p *= I;
  printf("product %g %g\n", crealf(p), cimagf(p));
  ok &= crealf(p) == 1 && cimagf(p) == 0;

  // A complex accumulator per gang, reduced over an inner worker loop.
  double _Complex r[4], d;
#pragma acc parallel loop gang private(d) copyin(x) copyout(r)
  for (int g = 0; g < 4; g++) {
    d = 0;
#pragma acc loop worker reduction(+ : d)
    for (int i = 0; i < N; i++)
      d += x[i] - x[i] * I;
    r[g] = d;
  }
  printf("rows %g %g\n", creal(r[3]), cimag(r[3]));
  for (int g = 0; g < 4; g++)
    ok &= creal(r[g]) == 4950 && cimag(r[g]) == -4950;

  printf(ok ? "PASS\n" : "FAIL\n");
  return !ok;
#endif
}
