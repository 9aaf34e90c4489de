/* Direct N-body gravity, serial C: the CPU baseline and the reference answer. */
#define TS_VARIANT "serial"
#include "nbody.h"

/* Accelerations from all bodies; kicks the velocities. */
static void nbody_forces(long n, const float *restrict x, const float *restrict y, const float *restrict z,
                         float *restrict vx, float *restrict vy, float *restrict vz, const float *restrict m,
                         float dt) {
  for (long i = 0; i < n; i++) {
    float xi = x[i], yi = y[i], zi = z[i], ax = 0.0f, ay = 0.0f, az = 0.0f;
    for (long j = 0; j < n; j++) {
      float dx = x[j] - xi, dy = y[j] - yi, dz = z[j] - zi;
      float r2 = dx * dx + dy * dy + dz * dz + NBODY_EPS2;
      float inv = 1.0f / sqrtf(r2);
      float s = m[j] * inv * inv * inv;
      ax += dx * s;
      ay += dy * s;
      az += dz * s;
    }
    vx[i] += dt * ax;
    vy[i] += dt * ay;
    vz[i] += dt * az;
  }
}

/* Drifts the positions. */
static void nbody_update(long n, float *restrict x, float *restrict y, float *restrict z, const float *restrict vx,
                         const float *restrict vy, const float *restrict vz, float dt) {
  for (long i = 0; i < n; i++) {
    x[i] += dt * vx[i];
    y[i] += dt * vy[i];
    z[i] += dt * vz[i];
  }
}

int main(int argc, char **argv) {
  nbody_params p = nbody_setup(argc, argv);
  long n = p.n;
  float *x = (float *)ts_alloc(n * sizeof(float)), *y = (float *)ts_alloc(n * sizeof(float)),
        *z = (float *)ts_alloc(n * sizeof(float)), *vx = (float *)ts_alloc(n * sizeof(float)),
        *vy = (float *)ts_alloc(n * sizeof(float)), *vz = (float *)ts_alloc(n * sizeof(float)),
        *m = (float *)ts_alloc(n * sizeof(float));
  nbody_init(n, x, y, z, vx, vy, vz, m);
  double e0 = n <= 32768 ? nbody_energy(n, x, y, z, vx, vy, vz, m) : 0.0;
  double t0 = ts_now();
  for (int s = 0; s < p.steps; s++) {
    nbody_forces(n, x, y, z, vx, vy, vz, m, NBODY_DT);
    nbody_update(n, x, y, z, vx, vy, vz, NBODY_DT);
  }
  double t = ts_now() - t0;
  int ok = nbody_report(&p, e0, x, y, z, vx, vy, vz, m, t);
  free(x);
  free(y);
  free(z);
  free(vx);
  free(vy);
  free(vz);
  free(m);
  return ok ? 0 : 1;
}
