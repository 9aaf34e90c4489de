// Direct N-body gravity, hand-written CUDA: the same algorithm as the other versions (one thread per body,
// a plain loop over all bodies reading positions from global memory; no shared-memory tiling, so that the
// comparison is of the compilers, not of the algorithms), 256 threads per block; timed with CUDA events.
#define TS_VARIANT "cuda"
#include "nbody.h"
#include "../common/ts_cuda.h"

__global__ void nbody_forces(long n, const float *__restrict__ x, const float *__restrict__ y,
                             const float *__restrict__ z, float *__restrict__ vx, float *__restrict__ vy,
                             float *__restrict__ vz, const float *__restrict__ m, float dt) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
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

__global__ void nbody_update(long n, float *__restrict__ x, float *__restrict__ y, float *__restrict__ z,
                             const float *__restrict__ vx, const float *__restrict__ vy, const float *__restrict__ vz,
                             float dt) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    x[i] += dt * vx[i];
    y[i] += dt * vy[i];
    z[i] += dt * vz[i];
  }
}

int main(int argc, char **argv) {
  nbody_params p = nbody_setup(argc, argv);
  ts_print_device();
  long n = p.n;
  float *h[7];
  for (int k = 0; k < 7; k++)
    h[k] = (float *)ts_alloc(n * sizeof(float));
  float *x = h[0], *y = h[1], *z = h[2], *vx = h[3], *vy = h[4], *vz = h[5], *m = h[6];
  nbody_init(n, x, y, z, vx, vy, vz, m);
  double e0 = n <= 32768 ? nbody_energy(n, x, y, z, vx, vy, vz, m) : 0.0;
  float *d[7];
  for (int k = 0; k < 7; k++) {
    d[k] = ts_dev_alloc<float>(n);
    ts_to_dev(d[k], h[k], n);
  }
  const unsigned bs = 256, nb = ts_blocks(n, bs);
  ts_gpu_timer tm;
  ts_gpu_timer_init(&tm);
  ts_gpu_timer_start(&tm);
  for (int s = 0; s < p.steps; s++) {
    nbody_forces<<<nb, bs>>>(n, d[0], d[1], d[2], d[3], d[4], d[5], d[6], NBODY_DT);
    nbody_update<<<nb, bs>>>(n, d[0], d[1], d[2], d[3], d[4], d[5], NBODY_DT);
  }
  double t = ts_gpu_timer_stop(&tm);
  CUDA_LAUNCH_CHECK();
  for (int k = 0; k < 6; k++)
    ts_to_host(h[k], d[k], n);
  int ok = nbody_report(&p, e0, x, y, z, vx, vy, vz, m, t);
  for (int k = 0; k < 7; k++) {
    cudaFree(d[k]);
    free(h[k]);
  }
  return ok ? 0 : 1;
}
