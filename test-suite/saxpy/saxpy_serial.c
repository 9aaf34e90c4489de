/* saxpy, serial C: the CPU baseline and the reference answer. */
#define TS_VARIANT "serial"
#include "saxpy.h"

static void saxpy_kernel(long n, float a, const float *restrict x, float *restrict y) {
  for (long i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}

int main(int argc, char **argv) {
  saxpy_params p = saxpy_setup(argc, argv);
  long n = p.n;
  float *x = (float *)ts_alloc(n * sizeof(float)), *y = (float *)ts_alloc(n * sizeof(float));
  saxpy_init(x, y, n);
  saxpy_kernel(n, SAXPY_A, x, y); /* warm-up */
  double t0 = ts_now();
  for (int it = 0; it < p.iters; it++)
    saxpy_kernel(n, SAXPY_A, x, y);
  double t = ts_now() - t0;
  int ok = saxpy_report(&p, y, p.iters + 1, t);
  free(x);
  free(y);
  return ok ? 0 : 1;
}
