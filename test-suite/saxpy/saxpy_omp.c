/* saxpy, OpenMP target offload: x and y mapped once (target data), y copied back with target update. */
#define TS_VARIANT "omp"
#include "saxpy.h"

static void saxpy_kernel(long n, float a, const float *restrict x, float *restrict y) {
#pragma omp target teams distribute parallel for
  for (long i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}

int main(int argc, char **argv) {
  saxpy_params p = saxpy_setup(argc, argv);
  long n = p.n;
  float *x = (float *)ts_alloc(n * sizeof(float)), *y = (float *)ts_alloc(n * sizeof(float));
  saxpy_init(x, y, n);
  double t;
#pragma omp target data map(to : x[0:n]) map(to : y[0:n])
  {
    saxpy_kernel(n, SAXPY_A, x, y); /* warm-up */
    double t0 = ts_now();
    for (int it = 0; it < p.iters; it++)
      saxpy_kernel(n, SAXPY_A, x, y);
    t = ts_now() - t0;
#pragma omp target update from(y[0:n])
  }
  int ok = saxpy_report(&p, y, p.iters + 1, t);
  free(x);
  free(y);
  return ok ? 0 : 1;
}
