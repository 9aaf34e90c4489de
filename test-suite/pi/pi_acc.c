/* pi by the Gregory series, OpenACC: one `parallel loop reduction(+:sum)` over a 64-bit trip count. */
#define TS_VARIANT "acc"
#include "pi.h"

static double pi_kernel(long n) {
  double sum = 0.0;
#pragma acc parallel loop reduction(+ : sum) copy(sum)
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
