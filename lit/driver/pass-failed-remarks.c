// The optimizer's "loop not vectorized" failures on simd loops are printed only when asked for
// (-Wpass-failed, -Rpass…), and then with their source line: the host bitcode has no line tables
// otherwise, and each simd loop exists twice (host fallback, emulator code), so they came out as
// a stream of '<unknown>:0:0' warnings at -O2.
// RUN: %ptxcc -fopenmp -O2 -c %s -o /dev/null 2>&1 | count 0
// RUN: %ptxcc -fopenmp -O2 -Wpass-failed -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: pass-failed-remarks.c:[[@LINE+4]]:{{[0-9]+}}: loop not vectorized
// CHECK-NOT: <unknown>
double f(double *a, int n) {
  double s = 0;
#pragma omp target teams distribute parallel for simd map(tofrom : a[0:n]) reduction(+ : s)
  for (int i = 0; i < n; i++) {
    if (a[i] > 3)
      s += a[i] * a[i];
    else
      a[i] = s;
  }
  return s;
}
