/*
 * Dense matrix product C = A B of N x N doubles in its naive form: one thread per element of C, each
 * computing a dot product of length N (2 N^3 flops). The inputs are small integers, so every element of
 * C is an exact integer whatever the order of the additions; 97 sampled elements are recomputed on the
 * host and the checksum (the sum of all of C) is exact.
 */
#ifndef MATMUL_H
#define MATMUL_H
#include "../common/ts_common.h"

typedef struct {
  char cls;
  long n;
  int iters;
} matmul_params;

static matmul_params matmul_setup(int argc, char **argv) {
  static const long sizes[5] = {128, 512, 1024, 2048, 4096};
  static const int iters[5] = {2, 3, 3, 3, 2};
  matmul_params p;
  p.cls = ts_class(argc, argv);
  int c = ts_class_index(p.cls);
  p.n = ts_opt_long(argc, argv, "n", sizes[c]);
  p.iters = (int)ts_opt_long(argc, argv, "iters", iters[c]);
  char buf[96];
  snprintf(buf, sizeof buf, "N=%ld (%.1f MiB per matrix), %d iterations", p.n, p.n * p.n * 8.0 / 1048576.0, p.iters);
  ts_banner("matmul", p.cls, buf);
  return p;
}

static double matmul_a(long i, long k) { return (double)((i * 3 + k) % 11 - 5); }
static double matmul_b(long k, long j) { return (double)((k * 7 + j) % 13 - 6); }

static void matmul_init(double *a, double *b, double *c, long n) {
  for (long i = 0; i < n; i++)
    for (long j = 0; j < n; j++) {
      a[i * n + j] = matmul_a(i, j);
      b[i * n + j] = matmul_b(i, j);
      c[i * n + j] = -1.0;
    }
}

static int matmul_report(const matmul_params *p, const double *c, int calls, double seconds) {
  long n = p->n, bad = 0;
  for (long s = 0; s < 97; s++) {
    long i = (s * 7919) % n, j = (s * 104729 + 13) % n;
    double want = 0;
    for (long k = 0; k < n; k++)
      want += matmul_a(i, k) * matmul_b(k, j);
    if (c[i * n + j] != want) {
      if (bad < 5)
        printf(" C[%ld][%ld] = %.17g, expected %.17g\n", i, j, c[i * n + j], want);
      bad++;
    }
  }
  double sum = 0;
  for (long i = 0; i < n * n; i++)
    sum += c[i];
  double t = seconds / p->iters, flops = 2.0 * (double)n * (double)n * (double)n;
  ts_result r = {"matmul", p->cls, p->iters, calls, t, "GFLOP/s", 1e-9 * flops / t, 3.0 * 8.0 * n * n, flops, 0,
                 bad == 0, 1e-15, sum, "matmul_kernel", NULL};
  ts_print_result(&r);
  ts_print_verification(bad == 0);
  return bad == 0;
}

#endif
