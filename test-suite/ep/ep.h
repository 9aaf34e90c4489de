/*
 * NPB EP ("embarrassingly parallel"), written from the NAS Parallel Benchmarks specification: generate
 * 2^(M+1) uniform pseudo-random numbers with the NPB generator (npb_random.h; seed 271828183, a = 5^13),
 * take them in pairs (x1, x2) = 2 (r_2k, r_2k+1) - 1, and for each pair with t = x1^2 + x2^2 <= 1 form the
 * Gaussian deviates X = x1 sqrt(-2 ln t / t), Y = x2 sqrt(-2 ln t / t) (Marsaglia's polar method); sum X
 * and Y (sx, sy) and count the pairs by l = floor(max(|X|, |Y|)) in q[0..9]. Classes: M = 24 (S), 25 (W),
 * 28 (A), 30 (B), 32 (C). Verification: sx and sy within 1e-8 (relative) of the specification's values.
 * Metric: Mop/s = 2^(M+1) / time / 10^6, as NPB reports it.
 * Parallel versions split the sequence into chunks of EP_CHUNK pairs; each chunk's first seed is found by
 * jumping ahead (npb_skip), so the numbers are exactly those of the serial sequence.
 */
#ifndef EP_H
#define EP_H
#include "../common/ts_common.h"
#include "../common/npb_random.h"

#define EP_SEED 271828183.0
#define EP_A 1220703125.0 /* 5^13 */
#define EP_CHUNK_LOG2 10
#define EP_CHUNK (1L << EP_CHUNK_LOG2) /* pairs per chunk */
#define EP_NQ 10

typedef struct {
  char cls;
  int m;
  long nchunks;
  double an; /* multiplier of one chunk: a^(2 EP_CHUNK) */
  double sx_ref, sy_ref;
} ep_params;

static ep_params ep_setup(int argc, char **argv) {
  static const int ms[5] = {24, 25, 28, 30, 32};
  static const double sx[5] = {-3.247834652034740e+3, -2.863319731645753e+3, -4.295875165629892e+3,
                               4.033815542441498e+4, 4.764367927995374e+4};
  static const double sy[5] = {-6.958407078382297e+3, -6.320053679109499e+3, -1.580732573678431e+4,
                               -2.660669192809235e+4, -8.084072988043731e+4};
  ep_params p;
  p.cls = ts_class(argc, argv);
  int c = ts_class_index(p.cls);
  p.m = ms[c];
  p.nchunks = 1L << (p.m - EP_CHUNK_LOG2);
  p.an = npb_pow2k(EP_A, EP_CHUNK_LOG2 + 1);
  p.sx_ref = sx[c];
  p.sy_ref = sy[c];
  char buf[96];
  snprintf(buf, sizeof buf, "M=%d: 2^%d random numbers, %ld chunks of %ld pairs", p.m, p.m + 1, p.nchunks, EP_CHUNK);
  ts_banner("NPB EP", p.cls, buf);
  return p;
}

static int ep_report(const ep_params *p, double sx, double sy, const double *q, double seconds) {
  double gc = 0;
  for (int i = 0; i < EP_NQ; i++)
    gc += q[i];
  double ex = fabs((sx - p->sx_ref) / p->sx_ref), ey = fabs((sy - p->sy_ref) / p->sy_ref);
  int ok = ex <= 1e-8 && ey <= 1e-8;
  printf(" sx = %.15e (reference %.15e, relative error %.2e)\n", sx, p->sx_ref, ex);
  printf(" sy = %.15e (reference %.15e, relative error %.2e)\n", sy, p->sy_ref, ey);
  printf(" Gaussian pairs %.0f; counts by annulus:", gc);
  for (int i = 0; i < EP_NQ; i++)
    printf(" %.0f", q[i]);
  printf("\n");
  double ops = ldexp(1.0, p->m + 1);
  ts_result r = {"ep", p->cls, 1, 1, seconds, "Mop/s", 1e-6 * ops / seconds, 0, 0, 0, ok, 1e-10, sx, "ep_kernel",
                 NULL};
  ts_print_result(&r);
  ts_print_verification(ok);
  return ok;
}

#endif
