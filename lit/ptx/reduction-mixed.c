// One reduction clause list of a parallel region nested in a teams loop that combines into a
// variable of the teams code (r: every thread keeps a copy, all must receive the result) and a
// global (g: one thread must combine) cannot be lowered by one tree: a clear error, not a race.
// RUN: not %ptxcc -fopenmp -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: reduction-mixed.c:[[#@LINE+8]]:{{[0-9]+}}: error: ptxcc does not support one reduction clause list combining into both variables of the enclosing region and shared variables; use separate parallel loops for them
double g;
#pragma omp declare target(g)
double f(int n, double *a) {
  double all = 0;
#pragma omp target teams distribute reduction(+: all) map(to: a[0:n*n])
  for (int i = 0; i < n; i++) {
    double r = 0;
#pragma omp parallel for reduction(+: r, g)
    for (int j = 0; j < n; j++) { r += a[i * n + j]; g += 1; }
    all += r;
  }
  return all;
}
