/* STREAM on 2-D arrays (AoS and SoA layouts), OpenMP target offload: one thread per structure (the
 * distributed loop), a sequential loop over its components; the arrays stay on the device (target data). */
#define TS_VARIANT "omp"
#include "stream2d.h"

/* AoS: component j of structure i at i*W + j. */
static void aos_copy(double *restrict a, double *restrict b, double *restrict c, double q, long L, long W) {
#pragma omp target teams distribute parallel for
  for (long i = 0; i < L; i++)
    for (long j = 0; j < W; j++)
      c[i * W + j] = a[i * W + j];
}
static void aos_scale(double *restrict a, double *restrict b, double *restrict c, double q, long L, long W) {
#pragma omp target teams distribute parallel for
  for (long i = 0; i < L; i++)
    for (long j = 0; j < W; j++)
      b[i * W + j] = q * c[i * W + j];
}
static void aos_add(double *restrict a, double *restrict b, double *restrict c, double q, long L, long W) {
#pragma omp target teams distribute parallel for
  for (long i = 0; i < L; i++)
    for (long j = 0; j < W; j++)
      c[i * W + j] = a[i * W + j] + b[i * W + j];
}
static void aos_triad(double *restrict a, double *restrict b, double *restrict c, double q, long L, long W) {
#pragma omp target teams distribute parallel for
  for (long i = 0; i < L; i++)
    for (long j = 0; j < W; j++)
      a[i * W + j] = b[i * W + j] + q * c[i * W + j];
}

/* SoA: component j of structure i at j*L + i. */
static void soa_copy(double *restrict a, double *restrict b, double *restrict c, double q, long L, long W) {
#pragma omp target teams distribute parallel for
  for (long i = 0; i < L; i++)
    for (long j = 0; j < W; j++)
      c[j * L + i] = a[j * L + i];
}
static void soa_scale(double *restrict a, double *restrict b, double *restrict c, double q, long L, long W) {
#pragma omp target teams distribute parallel for
  for (long i = 0; i < L; i++)
    for (long j = 0; j < W; j++)
      b[j * L + i] = q * c[j * L + i];
}
static void soa_add(double *restrict a, double *restrict b, double *restrict c, double q, long L, long W) {
#pragma omp target teams distribute parallel for
  for (long i = 0; i < L; i++)
    for (long j = 0; j < W; j++)
      c[j * L + i] = a[j * L + i] + b[j * L + i];
}
static void soa_triad(double *restrict a, double *restrict b, double *restrict c, double q, long L, long W) {
#pragma omp target teams distribute parallel for
  for (long i = 0; i < L; i++)
    for (long j = 0; j < W; j++)
      a[j * L + i] = b[j * L + i] + q * c[j * L + i];
}

static int run_layout(const stream_params *p, long W, const stream2d_kernel k[4], const char *layout) {
  long n = p->n, L = n / W;
  double *a = (double *)ts_alloc(n * sizeof(double)), *b = (double *)ts_alloc(n * sizeof(double)),
         *c = (double *)ts_alloc(n * sizeof(double));
  double times[4][64];
  stream_init(a, b, c, n); /* every element has the same value, so the layout does not matter here */
#pragma omp target data map(tofrom : a[0:n], b[0:n], c[0:n])
  {
    for (int t = 0; t < p->ntimes; t++)
      for (int f = 0; f < 4; f++) {
        double t0 = ts_now();
        k[f](a, b, c, STREAM_SCALAR, L, W);
        times[f][t] = ts_now() - t0;
      }
#pragma omp target update from(a[0:n], b[0:n], c[0:n])
  }
  char prefix[64];
  snprintf(prefix, sizeof prefix, "stream2d_%s_w%ld", layout, W);
  int ok = stream_report(p, a, b, c, times, prefix, layout);
  free(a);
  free(b);
  free(c);
  return ok;
}

int main(int argc, char **argv) {
  stream_params p = stream_setup(argc, argv);
  long W = stream2d_width(argc, argv, p.n);
  static const stream2d_kernel aos[4] = {aos_copy, aos_scale, aos_add, aos_triad};
  static const stream2d_kernel soa[4] = {soa_copy, soa_scale, soa_add, soa_triad};
  int ok = run_layout(&p, W, aos, "aos");
  ok &= run_layout(&p, W, soa, "soa");
  return ok ? 0 : 1;
}
