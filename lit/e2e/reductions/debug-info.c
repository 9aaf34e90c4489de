// Under -g clang wraps each outlined region in a `_debug__` function; kernel formation and the
// reduction lowering must see through the wrappers, at every optimisation level.
// RUN: %ptxcc -fopenmp -O0 -g %s -o %t0 && %run %t0 | FileCheck %s
// RUN: %ptxcc -fopenmp -O2 -g %s -o %t2 && %run %t2 | FileCheck %s
// CHECK: PASS
#include <stdio.h>
int main(void) {
  enum { N = 5000, R = 40, C = 125 };
  static double x[N], rows[R];
  for (int i = 0; i < N; i++) x[i] = (i % 17) - 8;
  double s = 0, want = 0;
  for (int i = 0; i < N; i++) want += x[i] * x[i];
#pragma omp target teams distribute parallel for map(to: x[0:N]) reduction(+: s)
  for (int i = 0; i < N; i++) s += x[i] * x[i];
#pragma omp target teams distribute map(to: x[0:N]) map(from: rows[0:R])
  for (int r = 0; r < R; r++) {
    double m = -1e300;
#pragma omp parallel for reduction(max: m)
    for (int c = 0; c < C; c++) m = x[r * C + c] > m ? x[r * C + c] : m;
    rows[r] = m;
  }
  int ok = s == want;
  for (int r = 0; r < R; r++) {
    double m = -1e300;
    for (int c = 0; c < C; c++) m = x[r * C + c] > m ? x[r * C + c] : m;
    ok &= rows[r] == m;
  }
  printf("%s s=%g want=%g\n", ok ? "PASS" : "FAIL", s, want);
  return !ok;
}
