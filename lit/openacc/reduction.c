// reduction: every operator, on a combined construct, a parallel construct and a loop.
// RUN: %ptxcc -fopenacc -fopenacc-print=omp %s | FileCheck %s

void f(int n, float *a, int *b) {
  float s = 0, p = 1, mx = 0, mn = 0;
  int ba = -1, bo = 0, bx = 0, la = 1, lo = 0;
  // CHECK: #pragma omp target teams distribute parallel for reduction(+: s) reduction(*: p) reduction(max: mx) reduction(min: mn)
  #pragma acc parallel loop reduction(+:s) reduction(*:p) reduction(max:mx) reduction(min:mn)
  for (int i = 0; i < n; i++) { s += a[i]; p *= a[i]; mx = mx > a[i] ? mx : a[i]; mn = mn < a[i] ? mn : a[i]; }
  // CHECK: #pragma omp target teams distribute parallel for reduction(&: ba) reduction(|: bo) reduction(^: bx) reduction(&&: la) reduction(||: lo)
  #pragma acc parallel loop reduction(&:ba) reduction(|:bo) reduction(^:bx) reduction(&&:la) reduction(||:lo)
  for (int i = 0; i < n; i++) { ba &= b[i]; bo |= b[i]; bx ^= b[i]; la = la && b[i]; lo = lo || b[i]; }
}
