/*
 * pi by the Gregory (Leibniz) series  pi = 4 sum_{k>=0} (-1)^k / (2k+1), summed over N terms: a reduction
 * (OpenMP/OpenACC `reduction(+:sum)`). The partial sum differs from pi by about 1/N; the check is that
 * bound plus the rounding of the sum, and, in the harness, agreement with the serial sum. N is a 64-bit
 * trip count (2^32 terms in class C). Metric: Mop/s = million terms per second.
 */
#ifndef PI_H
#define PI_H
#include "../common/ts_common.h"

typedef struct {
  char cls;
  long n;
  int iters;
} pi_params;

static pi_params pi_setup(int argc, char **argv) {
  static const long sizes[5] = {1L << 20, 1L << 24, 1L << 28, 1L << 30, 1L << 32};
  static const int iters[5] = {2, 3, 3, 3, 3};
  pi_params p;
  p.cls = ts_class(argc, argv);
  int c = ts_class_index(p.cls);
  p.n = ts_opt_long(argc, argv, "n", sizes[c]);
  p.iters = (int)ts_opt_long(argc, argv, "iters", iters[c]);
  char buf[96];
  snprintf(buf, sizeof buf, "N=%ld terms, %d iterations", p.n, p.iters);
  ts_banner("pi (Gregory series)", p.cls, buf);
  return p;
}

static int pi_report(const pi_params *p, double pi, int calls, double seconds) {
  const double PI = 3.14159265358979323846;
  double err = fabs(pi - PI), bound = 1.001 / (double)p->n + 1e-15 * sqrt((double)p->n) + 1e-14;
  int ok = err <= bound;
  printf(" pi = %.16f, error %.3e (bound %.3e)\n", pi, err, bound);
  double t = seconds / p->iters;
  ts_result r = {"pi", p->cls, p->iters, calls, t, "Mop/s", 1e-6 * (double)p->n / t, 0, 4.0 * (double)p->n, 0, ok,
                 1e-11, pi, "pi_kernel", NULL};
  ts_print_result(&r);
  ts_print_verification(ok);
  return ok;
}

#endif
