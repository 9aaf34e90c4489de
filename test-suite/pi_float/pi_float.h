/*
 * pi by the Gregory (Leibniz) series in single precision,  pi = 4 sum_{k>=0} (-1)^k / (2k+1)  with every
 * term and every partial sum a float: the float twin of test-suite/pi (double), a reduction(+) over N
 * terms with a 64-bit trip count, 2^30 terms in class C (test-suite/pi has 2^30 in class B, 2^32 in C).
 * It measures the float division and the float reduction tree. The answer is only as good as float
 * allows: each thread of a grid-stride (cyclic) loop adds terms of one sign (the stride is even), so its
 * rounding error grows with the terms per thread, about 5e-8 per term: 1e-5 with 2^18 threads over 2^28
 * terms, 2e-4 at 2^30, 3e-3 with only 2^14 threads. The check is therefore loose, |pi - 3.14159...| <=
 * 1/N + 6e-3 and, in the harness, agreement with the serial float sum (error 4e-6) within 2e-3
 * (relative): it catches a lost or doubled block of terms or a wrong identity, not the last digits (the
 * double pi is checked to 1/N). Metric: Mop/s = million terms per second; time per call is the best of
 * the timed calls (stat=min).
 */
#ifndef PI_FLOAT_H
#define PI_FLOAT_H
#include "../common/ts_common.h"

typedef struct {
  char cls;
  long n;
  int iters; /* timed; one more untimed warm-up call runs first */
} pi_float_params;

static pi_float_params pi_float_setup(int argc, char **argv) {
  static const long sizes[5] = {1L << 20, 1L << 24, 1L << 26, 1L << 28, 1L << 30};
  static const int iters[5] = {2, 3, 5, 5, 5};
  pi_float_params p;
  p.cls = ts_class(argc, argv);
  int c = ts_class_index(p.cls);
  p.n = ts_opt_long(argc, argv, "n", sizes[c]);
  p.iters = (int)ts_opt_long(argc, argv, "iters", iters[c]);
  if (p.iters < 1)
    p.iters = 1;
  char buf[96];
  snprintf(buf, sizeof buf, "N=%ld terms in float, %d iterations", p.n, p.iters);
  ts_banner("pi_float (Gregory series, float)", p.cls, buf);
  return p;
}

static int pi_float_report(const pi_float_params *p, float sum, int calls, double best_seconds) {
  const double PI = 3.14159265358979323846;
  double pi = 4.0 * (double)sum;
  double err = fabs(pi - PI), bound = 1.001 / (double)p->n + 6e-3;
  int ok = err <= bound;
  printf(" pi = %.9f, error %.3e (bound %.3e)\n", pi, err, bound);
  double t = best_seconds;
  ts_result r = {"pi_float", p->cls, p->iters, calls, t, "Mop/s", 1e-6 * (double)p->n / t, 0, 4.0 * (double)p->n, 0,
                 ok, 2e-3, pi, "pi_float_kernel", "min"};
  ts_print_result(&r);
  ts_print_verification(ok);
  return ok;
}

#endif
