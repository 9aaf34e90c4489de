/* 5-point Jacobi on a 2-D grid, OpenMP target offload: both grids stay on the device for all the sweeps
 * (target data); a sweep is one `target teams distribute parallel for collapse(2)`; u comes back with
 * target update at the end. */
#define TS_VARIANT "omp"
#include "jacobi2d.h"

/* One sweep: dst = mean of the four neighbours in src, on the interior. */
static void jacobi_sweep(const double *restrict src, double *restrict dst, long n) {
  long m = n + 2;
#pragma omp target teams distribute parallel for collapse(2)
  for (long i = 1; i <= n; i++)
    for (long j = 1; j <= n; j++)
      dst[JIDX(i, j, m)] = 0.25 * (src[JIDX(i - 1, j, m)] + src[JIDX(i + 1, j, m)] + src[JIDX(i, j - 1, m)] +
                                   src[JIDX(i, j + 1, m)]);
}

int main(int argc, char **argv) {
  jacobi_params p = jacobi_setup(argc, argv);
  long n = p.n, size = (n + 2) * (n + 2);
  double *u = (double *)ts_alloc(size * sizeof(double)), *v = (double *)ts_alloc(size * sizeof(double));
  jacobi_init(u, v, n);
  double t;
#pragma omp target data map(to : u[0:size], v[0:size])
  {
    double t0 = ts_now();
    for (int it = 0; it < p.iters; it += 2) {
      jacobi_sweep(u, v, n);
      jacobi_sweep(v, u, n);
    }
    t = ts_now() - t0;
#pragma omp target update from(u[0:size])
  }
  int ok = jacobi_report(&p, u, p.iters, t);
  free(u);
  free(v);
  return ok ? 0 : 1;
}
