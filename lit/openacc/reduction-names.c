// An `auto` loop whose dependence test finds reductions the user did not write: each gets its
// own reduction clause unless the construct already reduces that very variable. The check is by
// name (the construct's typed reduction set), so `s` is found even though `sum` is listed (a
// search of the emitted text for the name once took `reduction(+: sum)` for `s`, and `t`, `u`,
// `n` … for `reduction` itself), and `sum` is not reduced twice.
// RUN: %ptxcc -fopenacc -fopenacc-print=omp %s | FileCheck %s

void f(int n, const double *a) {
  double sum = 0, s = 0, t = 0;
  // CHECK: #pragma omp target teams distribute parallel for map(ompx_hold, to: a[0:n]) reduction(+: sum) reduction(+: s) reduction(+: t){{$}}
  #pragma acc parallel loop auto reduction(+ : sum) copyin(a[0:n])
  for (int i = 0; i < n; i++) {
    sum += a[i];
    s += 2 * a[i];
    t += a[i] * a[i];
  }
}
