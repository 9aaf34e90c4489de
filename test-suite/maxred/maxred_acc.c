/* max reductions, OpenACC: the arrays copied in once (acc data); each call is one
 * `parallel loop reduction(max:m)`, on doubles and on ints. */
#define TS_VARIANT "acc"
#include "maxred.h"

static double max_double(long n, const double *restrict a) {
  double m = -DBL_MAX;
#pragma acc parallel loop reduction(max : m) present(a[0:n]) copy(m)
  for (long i = 0; i < n; i++)
    m = fmax(m, a[i]);
  return m;
}

static int max_int(long n, const int *restrict b) {
  int m = INT_MIN;
#pragma acc parallel loop reduction(max : m) present(b[0:n]) copy(m)
  for (long i = 0; i < n; i++)
    m = b[i] > m ? b[i] : m;
  return m;
}

int main(int argc, char **argv) {
  maxred_params p = maxred_setup(argc, argv);
  long n = p.n;
  double *a = (double *)ts_alloc(n * sizeof(double));
  int *b = (int *)ts_alloc(n * sizeof(int));
  maxred_init(a, b, n);
  double md, bd = 1e300, bi = 1e300;
  int mi;
#pragma acc data copyin(a[0:n], b[0:n])
  {
    md = max_double(n, a); /* warm-up */
    mi = max_int(n, b);
    for (int it = 0; it < p.iters; it++) {
      double t0 = ts_now();
      md = max_double(n, a);
      double t1 = ts_now();
      mi = max_int(n, b);
      double t2 = ts_now();
      bd = t1 - t0 < bd ? t1 - t0 : bd;
      bi = t2 - t1 < bi ? t2 - t1 : bi;
    }
  }
  int ok = maxred_report(&p, md, mi, p.iters + 1, bd, bi);
  free(a);
  free(b);
  return ok ? 0 : 1;
}
