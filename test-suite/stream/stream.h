/*
 * STREAM (J. D. McCalpin's sustainable memory bandwidth benchmark), written from its published
 * description: three arrays a, b, c of N doubles, a scalar q = 3, and four kernels timed separately
 *     copy  c = a          16 bytes per element
 *     scale b = q c        16 bytes per element
 *     add   c = a + b      24 bytes per element
 *     triad a = b + q c    24 bytes per element
 * run NTIMES times in that order; the reported rate of each kernel is the best over all runs but the
 * first, and the results are checked against the same recurrence applied to scalars.
 */
#ifndef STREAM_H
#define STREAM_H
#include "../common/ts_common.h"

#define STREAM_SCALAR 3.0

typedef struct {
  char cls;
  long n;      /* elements per array */
  int ntimes;  /* runs of the four kernels, the first one untimed */
} stream_params;

static stream_params stream_setup(int argc, char **argv) {
  static const long sizes[5] = {1L << 16, 1L << 20, 1L << 24, 1L << 26, 1L << 27};
  static const int times[5] = {6, 10, 20, 20, 20};
  stream_params p;
  p.cls = ts_class(argc, argv);
  int c = ts_class_index(p.cls);
  p.n = ts_opt_long(argc, argv, "n", sizes[c]);
  p.ntimes = (int)ts_opt_long(argc, argv, "iters", times[c]);
  if (p.ntimes < 2)
    p.ntimes = 2;
  if (p.ntimes > 64)
    p.ntimes = 64;
  char buf[96];
  snprintf(buf, sizeof buf, "N=%ld doubles per array (%.1f MiB), NTIMES=%d", p.n, p.n * 8.0 / 1048576.0, p.ntimes);
  ts_banner("STREAM", p.cls, buf);
  return p;
}

static void stream_init(double *a, double *b, double *c, long n) {
  for (long j = 0; j < n; j++) {
    a[j] = 1.0;
    b[j] = 2.0;
    c[j] = 0.0;
  }
  /* STREAM doubles a once before the timed loop. */
  for (long j = 0; j < n; j++)
    a[j] = 2.0 * a[j];
}

/* times[k][t]: time of kernel k (copy, scale, add, triad) in run t. Results are named prefix_copy...; their
 * kernels (the functions holding the offload regions) kprefix_copy... Returns 1 when the results verify. */
static int stream_report(const stream_params *p, const double *a, const double *b, const double *c,
                         double times[4][64], const char *prefix, const char *kprefix) {
  /* expected values: the recurrence on scalars */
  double aj = 2.0, bj = 2.0, cj = 0.0;
  for (int k = 0; k < p->ntimes; k++) {
    cj = aj;
    bj = STREAM_SCALAR * cj;
    cj = aj + bj;
    aj = bj + STREAM_SCALAR * cj;
  }
  double aerr = 0, berr = 0, cerr = 0, asum = 0, bsum = 0, csum = 0;
  for (long j = 0; j < p->n; j++) {
    aerr += fabs(a[j] - aj);
    berr += fabs(b[j] - bj);
    cerr += fabs(c[j] - cj);
    asum += a[j];
    bsum += b[j];
    csum += c[j];
  }
  aerr /= (double)p->n;
  berr /= (double)p->n;
  cerr /= (double)p->n;
  const double eps = 1e-13;
  int ok = aerr / fabs(aj) <= eps && berr / fabs(bj) <= eps && cerr / fabs(cj) <= eps;
  if (!ok)
    printf(" STREAM check: mean abs errors a %g b %g c %g (expected a %g b %g c %g)\n", aerr, berr, cerr, aj, bj, cj);
  static const char *names[4] = {"copy", "scale", "add", "triad"};
  static const double words[4] = {2, 2, 3, 3}, flop[4] = {0, 1, 1, 2};
  double checksum = asum + bsum + csum;
  printf(" %-8s %12s %12s %12s %12s\n", "Function", "Best MB/s", "Avg time", "Min time", "Max time");
  for (int k = 0; k < 4; k++) {
    double mn = 1e300, mx = 0, avg = 0;
    for (int t = 1; t < p->ntimes; t++) {
      mn = fmin(mn, times[k][t]);
      mx = fmax(mx, times[k][t]);
      avg += times[k][t];
    }
    avg /= (double)(p->ntimes - 1);
    double bytes = words[k] * sizeof(double) * (double)p->n;
    printf(" %-8s %12.1f %12.6f %12.6f %12.6f\n", names[k], 1e-6 * bytes / mn, avg, mn, mx);
    char name[64], kernel[64];
    snprintf(name, sizeof name, "%s_%s", prefix, names[k]);
    snprintf(kernel, sizeof kernel, "%s_%s", kprefix, names[k]);
    ts_result r = {name, p->cls, p->ntimes - 1, p->ntimes, mn, "GB/s", 1e-9 * bytes / mn, bytes, flop[k] * (double)p->n,
                   1, ok, 1e-13, checksum, kernel, "min"};
    ts_print_result(&r);
  }
  ts_print_verification(ok);
  return ok;
}

#endif
