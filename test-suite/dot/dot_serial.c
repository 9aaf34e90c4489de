/* dot product, serial C: the CPU baseline and the reference answer. */
#define TS_VARIANT "serial"
#include "dot.h"

static double dot_kernel(long n, const double *restrict x, const double *restrict y) {
  double s = 0.0;
  for (long i = 0; i < n; i++)
    s += x[i] * y[i];
  return s;
}

int main(int argc, char **argv) {
  dot_params p = dot_setup(argc, argv);
  long n = p.n;
  double *x = (double *)ts_alloc(n * sizeof(double)), *y = (double *)ts_alloc(n * sizeof(double));
  dot_init(x, y, n);
  double s = dot_kernel(n, x, y); /* warm-up */
  double best = 1e300;
  for (int it = 0; it < p.iters; it++) {
    double t0 = ts_now();
    s = dot_kernel(n, x, y);
    double t = ts_now() - t0;
    best = t < best ? t : best;
  }
  int ok = dot_report(&p, s, p.iters + 1, best);
  free(x);
  free(y);
  return ok ? 0 : 1;
}
