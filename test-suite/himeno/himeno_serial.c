/* Himeno-style 19-point Jacobi, serial C: the CPU baseline and the reference answer. */
#define TS_VARIANT "serial"
#include "himeno.h"

/* One Jacobi iteration: wrk2 from p; returns gosa, the sum of the squared residuals. */
static double himeno_jacobi(long mi, long mj, long mk, const float *restrict a, const float *restrict b,
                            const float *restrict c, const float *restrict p, const float *restrict bnd,
                            const float *restrict wrk1, float *restrict wrk2, float omega) {
  long imax = mi - 1, jmax = mj - 1, kmax = mk - 1;
  double gosa = 0.0;
  for (long i = 1; i < imax - 1; i++)
    for (long j = 1; j < jmax - 1; j++)
      for (long k = 1; k < kmax - 1; k++) {
        float s0 = P4(a, 0, i, j, k) * P3(p, i + 1, j, k) + P4(a, 1, i, j, k) * P3(p, i, j + 1, k) +
                   P4(a, 2, i, j, k) * P3(p, i, j, k + 1) +
                   P4(b, 0, i, j, k) * (P3(p, i + 1, j + 1, k) - P3(p, i + 1, j - 1, k) - P3(p, i - 1, j + 1, k) +
                                        P3(p, i - 1, j - 1, k)) +
                   P4(b, 1, i, j, k) * (P3(p, i, j + 1, k + 1) - P3(p, i, j - 1, k + 1) - P3(p, i, j + 1, k - 1) +
                                        P3(p, i, j - 1, k - 1)) +
                   P4(b, 2, i, j, k) * (P3(p, i + 1, j, k + 1) - P3(p, i - 1, j, k + 1) - P3(p, i + 1, j, k - 1) +
                                        P3(p, i - 1, j, k - 1)) +
                   P4(c, 0, i, j, k) * P3(p, i - 1, j, k) + P4(c, 1, i, j, k) * P3(p, i, j - 1, k) +
                   P4(c, 2, i, j, k) * P3(p, i, j, k - 1) + P3(wrk1, i, j, k);
        float ss = (s0 * P4(a, 3, i, j, k) - P3(p, i, j, k)) * P3(bnd, i, j, k);
        gosa += (double)(ss * ss);
        P3(wrk2, i, j, k) = P3(p, i, j, k) + omega * ss;
      }
  return gosa;
}

/* p = wrk2 on the interior. */
static void himeno_copy(long mi, long mj, long mk, float *restrict p, const float *restrict wrk2) {
  long imax = mi - 1, jmax = mj - 1, kmax = mk - 1;
  for (long i = 1; i < imax - 1; i++)
    for (long j = 1; j < jmax - 1; j++)
      for (long k = 1; k < kmax - 1; k++)
        P3(p, i, j, k) = P3(wrk2, i, j, k);
}

int main(int argc, char **argv) {
  himeno_params hp = himeno_setup(argc, argv);
  long mi = hp.mi, mj = hp.mj, mk = hp.mk, n3 = mi * mj * mk;
  float *a = (float *)ts_alloc(4 * n3 * sizeof(float)), *b = (float *)ts_alloc(3 * n3 * sizeof(float)),
        *c = (float *)ts_alloc(3 * n3 * sizeof(float)), *p = (float *)ts_alloc(n3 * sizeof(float)),
        *bnd = (float *)ts_alloc(n3 * sizeof(float)), *wrk1 = (float *)ts_alloc(n3 * sizeof(float)),
        *wrk2 = (float *)ts_alloc(n3 * sizeof(float));
  himeno_init(&hp, a, b, c, p, bnd, wrk1, wrk2);
  double gosa = 0.0;
  double t0 = ts_now();
  for (int n = 0; n < hp.nn; n++) {
    gosa = himeno_jacobi(mi, mj, mk, a, b, c, p, bnd, wrk1, wrk2, HIMENO_OMEGA);
    himeno_copy(mi, mj, mk, p, wrk2);
  }
  double t = ts_now() - t0;
  int ok = himeno_report(&hp, gosa, p, t);
  free(a);
  free(b);
  free(c);
  free(p);
  free(bnd);
  free(wrk1);
  free(wrk2);
  return ok ? 0 : 1;
}
