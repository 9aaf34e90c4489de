/*
 * maxred: the largest element of an array of N doubles and of an array of N ints, each a
 * reduction(max) repeated ITERS times on data that stays on the device; 8 (double) or 4 (int) bytes per
 * element, bandwidth-bound. Every element is negative (so a reduction that starts from 0 instead of the
 * smallest value is wrong), scattered pseudo-randomly, and each array's largest element is unique and
 * planted where a loop-bound mistake shows: the last element of the doubles, an odd position past the
 * middle of the ints. The answer is exact, checked against the host's. Time per call is the best of the
 * timed calls (stat=min).
 */
#ifndef MAXRED_H
#define MAXRED_H
#include <float.h>
#include <limits.h>
#include "../common/ts_common.h"

typedef struct {
  char cls;
  long n;
  int iters; /* timed; one more untimed warm-up call runs first */
} maxred_params;

static maxred_params maxred_setup(int argc, char **argv) {
  static const long sizes[5] = {1L << 18, 1L << 22, 1L << 24, 1L << 26, 1L << 27};
  static const int iters[5] = {3, 20, 20, 20, 20};
  maxred_params p;
  p.cls = ts_class(argc, argv);
  int c = ts_class_index(p.cls);
  p.n = ts_opt_long(argc, argv, "n", sizes[c]);
  if (p.n < 1)
    p.n = 1;
  p.iters = (int)ts_opt_long(argc, argv, "iters", iters[c]);
  if (p.iters < 1)
    p.iters = 1;
  char buf[96];
  snprintf(buf, sizeof buf, "N=%ld doubles and N ints, %d iterations", p.n, p.iters);
  ts_banner("maxred (max reductions)", p.cls, buf);
  return p;
}

/* Where the ints' largest element is: an odd index past the middle (the last index for tiny N). */
static long maxred_int_pos(long n) {
  long k = ((n / 2 + 12345) % n) | 1;
  return k < n ? k : n - 1;
}

/* A scrambled 30-bit value of i (a multiplicative hash). */
static unsigned maxred_hash(long i) {
  unsigned long long h = (unsigned long long)i * 0x9e3779b97f4a7c15ULL;
  return (unsigned)(h >> 34);
}

static void maxred_init(double *a, int *b, long n) {
  for (long i = 0; i < n; i++) {
    unsigned h = maxred_hash(i);
    a[i] = -2.0 - (double)h * (1.0 / 1024.0); /* <= -2 */
    b[i] = -2 - (int)(h >> 1);                /* <= -2 */
  }
  a[n - 1] = -1.5;
  b[maxred_int_pos(n)] = -1;
}

/* Prints the two RESULT lines and the verification for the values of the last call; returns 1 when
 * both are right. */
static int maxred_report(const maxred_params *p, double md, int mi, int calls, double best_double,
                         double best_int) {
  int okd = md == -1.5, oki = mi == -1;
  printf(" max double = %.17g, expected -1.5%s\n", md, okd ? "" : " (wrong)");
  printf(" max int    = %d, expected -1%s\n", mi, oki ? "" : " (wrong)");
  double bd = 8.0 * (double)p->n, bi = 4.0 * (double)p->n;
  ts_result rd = {"max_double", p->cls, p->iters, calls, best_double, "GB/s", 1e-9 * bd / best_double, bd,
                  (double)p->n, 1, okd, 1e-15, md, "max_double", "min"};
  ts_result ri = {"max_int", p->cls, p->iters, calls, best_int, "GB/s", 1e-9 * bi / best_int, bi, 0, 1, oki,
                  1e-15, (double)mi, "max_int", "min"};
  ts_print_result(&rd);
  ts_print_result(&ri);
  ts_print_verification(okd && oki);
  return okd && oki;
}

#endif
