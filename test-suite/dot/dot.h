/*
 * dot: s = sum_i x[i] y[i] over N doubles (BLAS level 1 ddot), a reduction(+) repeated ITERS times on
 * data that stays on the device; 16 bytes and 2 flops per element, bandwidth-bound. The entries are
 * multiples of 1/4 and 1/2 small enough that every product and every partial sum is exact in double,
 * so the answer does not depend on the order of summation: it is checked exactly against the sum the
 * host computes in integers. Time per call is the best of the timed calls (stat=min), as for STREAM.
 */
#ifndef DOT_H
#define DOT_H
#include "../common/ts_common.h"

typedef struct {
  char cls;
  long n;
  int iters; /* timed; one more untimed warm-up call runs first */
} dot_params;

static dot_params dot_setup(int argc, char **argv) {
  static const long sizes[5] = {1L << 18, 1L << 22, 1L << 24, 1L << 26, 1L << 27};
  static const int iters[5] = {3, 20, 20, 20, 20};
  dot_params p;
  p.cls = ts_class(argc, argv);
  int c = ts_class_index(p.cls);
  p.n = ts_opt_long(argc, argv, "n", sizes[c]);
  p.iters = (int)ts_opt_long(argc, argv, "iters", iters[c]);
  if (p.iters < 1)
    p.iters = 1;
  char buf[96];
  snprintf(buf, sizeof buf, "N=%ld doubles (%.1f MiB per array), %d iterations", p.n, p.n * 8.0 / 1048576.0,
           p.iters);
  ts_banner("dot (ddot reduction)", p.cls, buf);
  return p;
}

/* x[i] = X(i) / 4 and y[i] = Y(i) / 2 with small integers X and Y (not zero-mean: the sum grows with N). */
static long dot_xi(long i) { return (i * 37) % 101 - 40; }
static long dot_yi(long i) { return (i * 53) % 97 - 40; }

static void dot_init(double *x, double *y, long n) {
  for (long i = 0; i < n; i++) {
    x[i] = 0.25 * (double)dot_xi(i);
    y[i] = 0.5 * (double)dot_yi(i);
  }
}

/* Prints the RESULT line and the verification for the value of the last call; returns 1 when right. */
static int dot_report(const dot_params *p, double s, int calls, double best_seconds) {
  long long want8 = 0; /* 8 * the exact dot product */
  for (long i = 0; i < p->n; i++)
    want8 += (long long)dot_xi(i) * dot_yi(i);
  double want = (double)want8 / 8.0;
  int ok = s == want;
  printf(" dot = %.17g, expected %.17g%s\n", s, want, ok ? "" : " (wrong)");
  double t = best_seconds, bytes = 16.0 * (double)p->n;
  ts_result r = {"dot", p->cls, p->iters, calls, t, "GB/s", 1e-9 * bytes / t, bytes, 2.0 * (double)p->n, 1, ok,
                 1e-15, s, "dot_kernel", "min"};
  ts_print_result(&r);
  ts_print_verification(ok);
  return ok;
}

#endif
