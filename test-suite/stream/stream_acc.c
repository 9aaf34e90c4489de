/* STREAM, OpenACC: a data region keeps the arrays on the device; each kernel is one `parallel loop`. */
#define TS_VARIANT "acc"
#include "stream.h"

static void stream_copy(const double *restrict a, double *restrict c, long n) {
#pragma acc parallel loop present(a[0:n], c[0:n])
  for (long j = 0; j < n; j++)
    c[j] = a[j];
}
static void stream_scale(double *restrict b, const double *restrict c, double q, long n) {
#pragma acc parallel loop present(b[0:n], c[0:n])
  for (long j = 0; j < n; j++)
    b[j] = q * c[j];
}
static void stream_add(const double *restrict a, const double *restrict b, double *restrict c, long n) {
#pragma acc parallel loop present(a[0:n], b[0:n], c[0:n])
  for (long j = 0; j < n; j++)
    c[j] = a[j] + b[j];
}
static void stream_triad(double *restrict a, const double *restrict b, const double *restrict c, double q, long n) {
#pragma acc parallel loop present(a[0:n], b[0:n], c[0:n])
  for (long j = 0; j < n; j++)
    a[j] = b[j] + q * c[j];
}

int main(int argc, char **argv) {
  stream_params p = stream_setup(argc, argv);
  long n = p.n;
  double *a = ts_alloc(n * sizeof(double)), *b = ts_alloc(n * sizeof(double)), *c = ts_alloc(n * sizeof(double));
  double times[4][64];
  stream_init(a, b, c, n);
#pragma acc data copy(a[0:n], b[0:n], c[0:n])
  {
    for (int t = 0; t < p.ntimes; t++) {
      double t0 = ts_now();
      stream_copy(a, c, n);
      double t1 = ts_now();
      stream_scale(b, c, STREAM_SCALAR, n);
      double t2 = ts_now();
      stream_add(a, b, c, n);
      double t3 = ts_now();
      stream_triad(a, b, c, STREAM_SCALAR, n);
      double t4 = ts_now();
      times[0][t] = t1 - t0;
      times[1][t] = t2 - t1;
      times[2][t] = t3 - t2;
      times[3][t] = t4 - t3;
    }
#pragma acc update self(a[0:n], b[0:n], c[0:n])
  }
  int ok = stream_report(&p, a, b, c, times, "stream", "stream");
  free(a);
  free(b);
  free(c);
  return ok ? 0 : 1;
}
