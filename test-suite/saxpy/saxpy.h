/*
 * saxpy: y = a x + y on N floats (BLAS level 1), repeated ITERS times on data that stays on the device;
 * 12 bytes and 2 flops per element. The inputs are small integers and a = 0.5, so every result is exact
 * in float and is checked element by element against y0 + ITERS a x.
 */
#ifndef SAXPY_H
#define SAXPY_H
#include "../common/ts_common.h"

#define SAXPY_A 0.5f

typedef struct {
  char cls;
  long n;
  int iters; /* timed; one more untimed warm-up call runs first */
} saxpy_params;

static saxpy_params saxpy_setup(int argc, char **argv) {
  static const long sizes[5] = {1L << 18, 1L << 22, 1L << 24, 1L << 26, 1L << 28};
  static const int iters[5] = {5, 20, 20, 20, 20};
  saxpy_params p;
  p.cls = ts_class(argc, argv);
  int c = ts_class_index(p.cls);
  p.n = ts_opt_long(argc, argv, "n", sizes[c]);
  p.iters = (int)ts_opt_long(argc, argv, "iters", iters[c]);
  char buf[96];
  snprintf(buf, sizeof buf, "N=%ld floats (%.1f MiB per array), %d iterations", p.n, p.n * 4.0 / 1048576.0, p.iters);
  ts_banner("saxpy", p.cls, buf);
  return p;
}

static void saxpy_init(float *x, float *y, long n) {
  for (long i = 0; i < n; i++) {
    x[i] = (float)(i % 97);
    y[i] = (float)(i % 13);
  }
}

/* y after `calls` saxpy calls; prints the RESULT line and the verification; returns 1 when right. */
static int saxpy_report(const saxpy_params *p, const float *y, int calls, double seconds) {
  long bad = 0;
  double sum = 0;
  for (long i = 0; i < p->n; i++) {
    float want = (float)(i % 13) + (float)calls * SAXPY_A * (float)(i % 97);
    if (y[i] != want) {
      if (bad < 5)
        printf(" y[%ld] = %.9g, expected %.9g\n", i, y[i], want);
      bad++;
    }
    sum += y[i];
  }
  if (bad)
    printf(" %ld wrong elements\n", bad);
  double t = seconds / p->iters, bytes = 12.0 * (double)p->n;
  ts_result r = {"saxpy", p->cls, p->iters, calls, t, "GB/s", 1e-9 * bytes / t, bytes, 2.0 * (double)p->n, 1, bad == 0,
                 1e-15, sum, "saxpy_kernel", NULL};
  ts_print_result(&r);
  ts_print_verification(bad == 0);
  return bad == 0;
}

#endif
