/* pi by the Gregory series in float, OpenACC: one `parallel loop reduction(+:sum)` over a 64-bit trip count,
 * float terms and float sum. */
#define TS_VARIANT "acc"
#include "pi_float.h"

static float pi_float_kernel(long n) {
  float sum = 0.0f;
#pragma acc parallel loop reduction(+ : sum) copy(sum)
  for (long k = 0; k < n; k++)
    sum += ((k & 1) ? -1.0f : 1.0f) / (float)(2 * k + 1);
  return sum;
}

int main(int argc, char **argv) {
  pi_float_params p = pi_float_setup(argc, argv);
  float sum = pi_float_kernel(p.n); /* warm-up */
  double best = 1e300;
  for (int it = 0; it < p.iters; it++) {
    double t0 = ts_now();
    sum = pi_float_kernel(p.n);
    double t = ts_now() - t0;
    best = t < best ? t : best;
  }
  return pi_float_report(&p, sum, p.iters + 1, best) ? 0 : 1;
}
