/* OpenMP target nowait: chains of target tasks ordered by depend, enter/update/exit data nowait,
 * independent chains running at the same time, taskwait. */
#include <stdio.h>
#include <stdlib.h>
int main(void) {
  enum { N = 50000, CHAINS = 4, STEPS = 8 };
  double *v[CHAINS];
  for (int c = 0; c < CHAINS; c++) {
    v[c] = malloc(N * sizeof(double));
    for (int i = 0; i < N; i++) v[c][i] = c;
  }
#pragma omp parallel num_threads(2)
#pragma omp single
  for (int c = 0; c < CHAINS; c++) {
    double *x = v[c];
#pragma omp target enter data map(to: x[0:N]) nowait depend(out: x[0])
    for (int s = 0; s < STEPS; s++) {
#pragma omp target teams distribute parallel for map(present, alloc: x[0:N]) nowait depend(inout: x[0])
      for (int i = 0; i < N; i++) x[i] = 2 * x[i] + 1;
    }
#pragma omp target exit data map(from: x[0:N]) nowait depend(inout: x[0])
  }
  /* the end of the single region's implicit barrier waits for the tasks */
  int bad = 0;
  for (int c = 0; c < CHAINS; c++) {
    double e = c;
    for (int s = 0; s < STEPS; s++) e = 2 * e + 1;
    for (int i = 0; i < N; i++) bad += v[c][i] != e;
  }
  double y[100];
  for (int i = 0; i < 100; i++) y[i] = i;
#pragma omp target teams distribute parallel for map(tofrom: y[0:100]) nowait
  for (int i = 0; i < 100; i++) y[i] += 1;
#pragma omp taskwait
  for (int i = 0; i < 100; i++) bad += y[i] != i + 1;
  printf("%s\n", bad ? "FAIL" : "ok");
  return bad != 0;
}
