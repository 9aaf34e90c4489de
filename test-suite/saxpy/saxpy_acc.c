/* saxpy, OpenACC: x and y copied in once (acc data), y brought back with update self. */
#define TS_VARIANT "acc"
#include "saxpy.h"

static void saxpy_kernel(long n, float a, const float *restrict x, float *restrict y) {
#pragma acc parallel loop present(x[0:n], y[0:n])
  for (long i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}

int main(int argc, char **argv) {
  saxpy_params p = saxpy_setup(argc, argv);
  long n = p.n;
  float *x = (float *)ts_alloc(n * sizeof(float)), *y = (float *)ts_alloc(n * sizeof(float));
  saxpy_init(x, y, n);
  double t;
#pragma acc data copyin(x[0:n], y[0:n])
  {
    saxpy_kernel(n, SAXPY_A, x, y); /* warm-up */
    double t0 = ts_now();
    for (int it = 0; it < p.iters; it++)
      saxpy_kernel(n, SAXPY_A, x, y);
    t = ts_now() - t0;
#pragma acc update self(y[0:n])
  }
  int ok = saxpy_report(&p, y, p.iters + 1, t);
  free(x);
  free(y);
  return ok ? 0 : 1;
}
