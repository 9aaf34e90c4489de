/*
 * Direct N-body gravity: N bodies (float positions, velocities, masses; G = 1, total mass 1, softening
 * eps^2 = 0.01), STEPS time steps of symplectic Euler: a kernel computing every body's acceleration over
 * all N bodies (O(N^2), one thread per body) and kicking its velocity, then a kernel drifting the
 * positions. 20 flops per interaction (the usual count for this kernel). The bodies start at rest at
 * pseudo-random positions in the unit cube. Checks: total energy and momentum conserved (computed on the
 * host in double; energy only up to N = 32768, it costs N^2), the velocities' checksum equal to the
 * serial one recorded below within 1e-5 (float arithmetic in another order and fused multiply-adds
 * change it by about 1e-9).
 */
#ifndef NBODY_H
#define NBODY_H
#include "../common/ts_common.h"

#define NBODY_EPS2 0.01f
#define NBODY_DT 0.001f

typedef struct {
  char cls;
  long n;
  int steps;
  double ref; /* velocity checksum of the serial version, 0 if not recorded */
} nbody_params;

static nbody_params nbody_setup(int argc, char **argv) {
  static const long sizes[5] = {1024, 4096, 16384, 65536, 131072};
  static const int steps[5] = {5, 5, 5, 3, 2};
  static const double refs[5] = {3.3927601848919835, 13.492233845222806, 54.127413365824644, 130.48652628541393,
                                 174.21929984320667};
  nbody_params p;
  p.cls = ts_class(argc, argv);
  int c = ts_class_index(p.cls);
  p.n = ts_opt_long(argc, argv, "n", sizes[c]);
  p.steps = (int)ts_opt_long(argc, argv, "iters", steps[c]);
  p.ref = (p.n == sizes[c] && p.steps == steps[c]) ? refs[c] : 0.0;
  char buf[96];
  snprintf(buf, sizeof buf, "N=%ld bodies, %d steps", p.n, p.steps);
  ts_banner("N-body", p.cls, buf);
  return p;
}

static void nbody_init(long n, float *x, float *y, float *z, float *vx, float *vy, float *vz, float *m) {
  uint64_t s = 88172645463325252ULL; /* xorshift64 */
  for (long i = 0; i < n; i++) {
    float r[3];
    for (int d = 0; d < 3; d++) {
      s ^= s << 13;
      s ^= s >> 7;
      s ^= s << 17;
      r[d] = (float)((double)(s >> 11) * (1.0 / 9007199254740992.0));
    }
    x[i] = 2.0f * r[0] - 1.0f;
    y[i] = 2.0f * r[1] - 1.0f;
    z[i] = 2.0f * r[2] - 1.0f;
    vx[i] = vy[i] = vz[i] = 0.0f;
    m[i] = 1.0f / (float)n;
  }
}

/* Total energy (kinetic + softened potential), in double. */
static double nbody_energy(long n, const float *x, const float *y, const float *z, const float *vx, const float *vy,
                           const float *vz, const float *m) {
  double e = 0.0;
  for (long i = 0; i < n; i++) {
    e += 0.5 * m[i] * ((double)vx[i] * vx[i] + (double)vy[i] * vy[i] + (double)vz[i] * vz[i]);
    for (long j = i + 1; j < n; j++) {
      double dx = (double)x[j] - x[i], dy = (double)y[j] - y[i], dz = (double)z[j] - z[i];
      e -= (double)m[i] * m[j] / sqrt(dx * dx + dy * dy + dz * dz + NBODY_EPS2);
    }
  }
  return e;
}

static int nbody_report(const nbody_params *p, double e0, const float *x, const float *y, const float *z,
                        const float *vx, const float *vy, const float *vz, const float *m, double seconds) {
  long n = p->n;
  double px = 0, py = 0, pz = 0, pabs = 0, vsum = 0;
  for (long i = 0; i < n; i++) {
    px += (double)m[i] * vx[i];
    py += (double)m[i] * vy[i];
    pz += (double)m[i] * vz[i];
    pabs += (double)m[i] * (fabs(vx[i]) + fabs(vy[i]) + fabs(vz[i]));
    vsum += fabs(vx[i]) + fabs(vy[i]) + fabs(vz[i]);
  }
  double pmag = sqrt(px * px + py * py + pz * pz);
  int ok = vsum == vsum && vsum > 0 && pmag <= 1e-3 * pabs;
  printf(" momentum %.3e (relative %.3e), velocity checksum %.10e\n", pmag, pmag / pabs, vsum);
  if (e0 != 0.0) {
    double e1 = nbody_energy(n, x, y, z, vx, vy, vz, m);
    printf(" energy %.10e -> %.10e (relative change %.3e)\n", e0, e1, fabs(e1 - e0) / fabs(e0));
    ok = ok && fabs(e1 - e0) <= 1e-4 * fabs(e0);
  }
  if (p->ref != 0.0) {
    printf(" serial velocity checksum %.10e (relative difference %.3e)\n", p->ref, fabs(vsum - p->ref) / p->ref);
    ok = ok && ts_close(vsum, p->ref, 1e-5);
  }
  double t = seconds / p->steps, flops = 20.0 * (double)n * (double)n;
  ts_result r = {"nbody", p->cls, p->steps, p->steps, t, "GFLOP/s", 1e-9 * flops / t, 0, flops, 0, ok, 1e-5, vsum,
                 "nbody", NULL};
  ts_print_result(&r);
  ts_print_verification(ok);
  return ok;
}

#endif
