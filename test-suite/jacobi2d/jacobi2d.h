/*
 * 5-point Jacobi iteration for the Laplace equation on an (N+2) x (N+2) grid of doubles with fixed
 * boundary values: every sweep sets each interior point to the mean of its four neighbours, reading one
 * array and writing the other; ITERS sweeps (an even number, so that the result ends in u) run inside one
 * device data region. Each point's update is the same expression on every target (no contraction is
 * possible in 0.25 * (a + b + c + d)), so the result is bit-for-bit the serial one: it is checked against
 * the serial checksum (the sum of the interior) recorded below for each class, and by the harness.
 * Metric: GB/s counting 16 bytes per point and sweep (one read, one write: neighbours come from cache).
 */
#ifndef JACOBI2D_H
#define JACOBI2D_H
#include "../common/ts_common.h"

typedef struct {
  char cls;
  long n;    /* interior points per side */
  int iters; /* sweeps, even */
  double ref; /* expected checksum, 0 when not recorded */
} jacobi_params;

#define JIDX(i, j, m) ((i) * (m) + (j))

static jacobi_params jacobi_setup(int argc, char **argv) {
  static const long sizes[5] = {256, 1024, 4096, 8192, 16384};
  static const int iters[5] = {100, 200, 200, 200, 100};
  /* checksums of the serial version (clang -O2) for the default sizes and sweeps */
  static const double refs[5] = {1942.7342259061656, 11426.352883805544, 45957.76044533855, 91999.637193993127,
                                 126846.56584768799};
  jacobi_params p;
  p.cls = ts_class(argc, argv);
  int c = ts_class_index(p.cls);
  p.n = ts_opt_long(argc, argv, "n", sizes[c]);
  p.iters = (int)ts_opt_long(argc, argv, "iters", iters[c]);
  p.iters += p.iters & 1;
  p.ref = (p.n == sizes[c] && p.iters == iters[c]) ? refs[c] : 0.0;
  char buf[96];
  snprintf(buf, sizeof buf, "%ld x %ld interior points, %d sweeps", p.n, p.n, p.iters);
  ts_banner("Jacobi 5-point 2-D", p.cls, buf);
  return p;
}

/* Boundary: 1 on the top edge, a ramp on the left edge, 0 elsewhere; interior 0. Both arrays alike. */
static void jacobi_init(double *u, double *v, long n) {
  long m = n + 2;
  for (long i = 0; i < m; i++)
    for (long j = 0; j < m; j++) {
      double x = 0.0;
      if (i == 0)
        x = 1.0;
      else if (j == 0)
        x = 1.0 - (double)i / (double)(m - 1);
      u[JIDX(i, j, m)] = x;
      v[JIDX(i, j, m)] = x;
    }
}

static int jacobi_report(const jacobi_params *p, const double *u, int calls, double seconds) {
  long n = p->n, m = n + 2;
  double sum = 0;
  int finite = 1;
  for (long i = 1; i <= n; i++)
    for (long j = 1; j <= n; j++) {
      double x = u[JIDX(i, j, m)];
      sum += x;
      if (!(x >= 0.0 && x <= 1.0))
        finite = 0; /* the maximum principle: every value stays within the boundary's range */
    }
  int ok = finite && (p->ref == 0.0 || ts_close(sum, p->ref, 1e-12));
  printf(" checksum %.17g%s%s\n", sum, p->ref != 0.0 ? (ok ? " (matches the serial value)" : " (serial value differs)") : " (no recorded value: compare with serial)",
         finite ? "" : ", values outside [0, 1]");
  if (p->ref != 0.0)
    printf(" expected %.17g\n", p->ref);
  double t = seconds / p->iters, bytes = 16.0 * (double)n * (double)n;
  ts_result r = {"jacobi2d", p->cls, p->iters, calls, t, "GB/s", 1e-9 * bytes / t, bytes, 4.0 * (double)n * (double)n,
                 1, ok, 1e-12, sum, "jacobi_sweep", NULL};
  ts_print_result(&r);
  ts_print_verification(ok);
  return ok;
}

#endif
