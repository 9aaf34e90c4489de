/* NPB EP, OpenACC: one gang/vector iteration per chunk of pairs; sx and sy by reduction(+), the annulus
 * counts in a private array per chunk added to q with atomic updates (10 per chunk). */
#define TS_VARIANT "acc"
#include "ep.h"

static void ep_kernel(long nchunks, double an, double *sxp, double *syp, double *q) {
  double sx = 0.0, sy = 0.0;
#pragma acc parallel loop reduction(+ : sx, sy) copy(q[0:EP_NQ])
  for (long c = 0; c < nchunks; c++) {
    double lq[EP_NQ] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    double seed = npb_skip(EP_SEED, an, c);
#pragma acc loop seq
    for (long i = 0; i < EP_CHUNK; i++) {
      double x1 = 2.0 * npb_randlc(&seed, EP_A) - 1.0;
      double x2 = 2.0 * npb_randlc(&seed, EP_A) - 1.0;
      double t = x1 * x1 + x2 * x2;
      if (t <= 1.0) {
        double f = sqrt(-2.0 * log(t) / t);
        double gx = x1 * f, gy = x2 * f;
        int l = (int)fmax(fabs(gx), fabs(gy));
        lq[l] += 1.0;
        sx += gx;
        sy += gy;
      }
    }
#pragma acc loop seq
    for (int l = 0; l < EP_NQ; l++)
      if (lq[l] != 0.0) {
#pragma acc atomic update
        q[l] += lq[l];
      }
  }
  *sxp = sx;
  *syp = sy;
}

int main(int argc, char **argv) {
  ep_params p = ep_setup(argc, argv);
  double sx, sy, q[EP_NQ] = {0};
  double t0 = ts_now();
  ep_kernel(p.nchunks, p.an, &sx, &sy, q);
  double t = ts_now() - t0;
  return ep_report(&p, sx, sy, q, t) ? 0 : 1;
}
