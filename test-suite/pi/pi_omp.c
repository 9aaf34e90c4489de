/* pi by the Gregory series, OpenMP target offload: one `target teams distribute parallel for` with
 * reduction(+:sum) over a 64-bit trip count (ptxcc: a grid-stride loop, warp shuffles, one atomic
 * per block). */
#define TS_VARIANT "omp"
#include "pi.h"

static double pi_kernel(long n) {
  double sum = 0.0;
#pragma omp target teams distribute parallel for reduction(+ : sum) map(tofrom : sum)
  for (long k = 0; k < n; k++)
    sum += ((k & 1) ? -1.0 : 1.0) / (double)(2 * k + 1);
  return 4.0 * sum;
}

int main(int argc, char **argv) {
  pi_params p = pi_setup(argc, argv);
  double pi = pi_kernel(p.n); /* warm-up */
  double t0 = ts_now();
  for (int it = 0; it < p.iters; it++)
    pi = pi_kernel(p.n);
  double t = ts_now() - t0;
  return pi_report(&p, pi, p.iters + 1, t) ? 0 : 1;
}
