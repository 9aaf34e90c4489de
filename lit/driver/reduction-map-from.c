// A reduction variable its own construct maps `from` only starts the reduction from an
// uninitialised device copy: ptxcc warns at the map item (valid OpenMP, so not an error), and -w
// silences it. tofrom (or no map) is quiet.
// RUN: %ptxcc -fopenmp -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %ptxcc -fopenmp -c -w %s -o /dev/null 2>&1 | count 0
double dot(int n, const double *x, const double *y) {
  double sum = 0, other = 0;
  // CHECK: reduction-map-from.c:[[@LINE+1]]:84: warning: reduction variable 'sum' is mapped 'from' only: its device copy is not initialised before the reduction combines into it; map it 'tofrom'
#pragma omp target teams distribute parallel for map(to: x[0:n], y[0:n]) map(from: sum) reduction(+: sum)
  for (int i = 0; i < n; i++) sum += x[i] * y[i];
  // CHECK-NOT: warning
#pragma omp target teams distribute parallel for map(to: x[0:n]) map(tofrom: other) reduction(+: other)
  for (int i = 0; i < n; i++) other += x[i];
  return sum + other;
}
