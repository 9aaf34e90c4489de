/* Naive matrix product, OpenMP target offload: one device thread per element of C (collapse(2) over i, j);
 * A and B mapped to the device once, C brought back by target update. */
#define TS_VARIANT "omp"
#include "matmul.h"

static void matmul_kernel(long n, const double *restrict a, const double *restrict b, double *restrict c) {
#pragma omp target teams distribute parallel for collapse(2)
  for (long i = 0; i < n; i++)
    for (long j = 0; j < n; j++) {
      double s = 0.0;
      for (long k = 0; k < n; k++)
        s += a[i * n + k] * b[k * n + j];
      c[i * n + j] = s;
    }
}

int main(int argc, char **argv) {
  matmul_params p = matmul_setup(argc, argv);
  long n = p.n;
  double *a = (double *)ts_alloc(n * n * sizeof(double)), *b = (double *)ts_alloc(n * n * sizeof(double)),
         *c = (double *)ts_alloc(n * n * sizeof(double));
  matmul_init(a, b, c, n);
  double t;
#pragma omp target data map(to : a[0:n * n], b[0:n * n]) map(alloc : c[0:n * n])
  {
    matmul_kernel(n, a, b, c); /* warm-up */
    double t0 = ts_now();
    for (int it = 0; it < p.iters; it++)
      matmul_kernel(n, a, b, c);
    t = ts_now() - t0;
#pragma omp target update from(c[0:n * n])
  }
  int ok = matmul_report(&p, c, p.iters + 1, t);
  free(a);
  free(b);
  free(c);
  return ok ? 0 : 1;
}
