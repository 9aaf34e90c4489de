// STREAM on 2-D arrays (AoS and SoA layouts), hand-written CUDA: one thread per structure, a loop over its W
// components, 256 threads per block; kernels timed with CUDA events.
#define TS_VARIANT "cuda"
#include "stream2d.h"
#include "../common/ts_cuda.h"

// AoS: component j of structure i at i*W + j.
__global__ void aos_copy(double *__restrict__ a, double *__restrict__ b, double *__restrict__ c, double q, long L, long W) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < L)
    for (long j = 0; j < W; j++)
      c[i * W + j] = a[i * W + j];
}
__global__ void aos_scale(double *__restrict__ a, double *__restrict__ b, double *__restrict__ c, double q, long L, long W) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < L)
    for (long j = 0; j < W; j++)
      b[i * W + j] = q * c[i * W + j];
}
__global__ void aos_add(double *__restrict__ a, double *__restrict__ b, double *__restrict__ c, double q, long L, long W) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < L)
    for (long j = 0; j < W; j++)
      c[i * W + j] = a[i * W + j] + b[i * W + j];
}
__global__ void aos_triad(double *__restrict__ a, double *__restrict__ b, double *__restrict__ c, double q, long L, long W) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < L)
    for (long j = 0; j < W; j++)
      a[i * W + j] = b[i * W + j] + q * c[i * W + j];
}
// SoA: component j of structure i at j*L + i.
__global__ void soa_copy(double *__restrict__ a, double *__restrict__ b, double *__restrict__ c, double q, long L, long W) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < L)
    for (long j = 0; j < W; j++)
      c[j * L + i] = a[j * L + i];
}
__global__ void soa_scale(double *__restrict__ a, double *__restrict__ b, double *__restrict__ c, double q, long L, long W) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < L)
    for (long j = 0; j < W; j++)
      b[j * L + i] = q * c[j * L + i];
}
__global__ void soa_add(double *__restrict__ a, double *__restrict__ b, double *__restrict__ c, double q, long L, long W) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < L)
    for (long j = 0; j < W; j++)
      c[j * L + i] = a[j * L + i] + b[j * L + i];
}
__global__ void soa_triad(double *__restrict__ a, double *__restrict__ b, double *__restrict__ c, double q, long L, long W) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < L)
    for (long j = 0; j < W; j++)
      a[j * L + i] = b[j * L + i] + q * c[j * L + i];
}

static void launch(int layout, int f, unsigned nb, unsigned bs, double *a, double *b, double *c, long L, long W) {
  double q = STREAM_SCALAR;
  if (layout == 0) {
    switch (f) {
    case 0: aos_copy<<<nb, bs>>>(a, b, c, q, L, W); break;
    case 1: aos_scale<<<nb, bs>>>(a, b, c, q, L, W); break;
    case 2: aos_add<<<nb, bs>>>(a, b, c, q, L, W); break;
    default: aos_triad<<<nb, bs>>>(a, b, c, q, L, W); break;
    }
  } else {
    switch (f) {
    case 0: soa_copy<<<nb, bs>>>(a, b, c, q, L, W); break;
    case 1: soa_scale<<<nb, bs>>>(a, b, c, q, L, W); break;
    case 2: soa_add<<<nb, bs>>>(a, b, c, q, L, W); break;
    default: soa_triad<<<nb, bs>>>(a, b, c, q, L, W); break;
    }
  }
}

static int run_layout(const stream_params *p, long W, int layout) {
  long n = p->n, L = n / W;
  double *a = (double *)ts_alloc(n * sizeof(double)), *b = (double *)ts_alloc(n * sizeof(double)),
         *c = (double *)ts_alloc(n * sizeof(double));
  double times[4][64];
  stream_init(a, b, c, n);
  double *da = ts_dev_alloc<double>(n), *db = ts_dev_alloc<double>(n), *dc = ts_dev_alloc<double>(n);
  ts_to_dev(da, a, n);
  ts_to_dev(db, b, n);
  ts_to_dev(dc, c, n);
  const unsigned bs = 256, nb = ts_blocks(L, bs);
  ts_gpu_timer tm;
  ts_gpu_timer_init(&tm);
  for (int t = 0; t < p->ntimes; t++)
    for (int f = 0; f < 4; f++) {
      ts_gpu_timer_start(&tm);
      launch(layout, f, nb, bs, da, db, dc, L, W);
      times[f][t] = ts_gpu_timer_stop(&tm);
      CUDA_LAUNCH_CHECK();
    }
  ts_to_host(a, da, n);
  ts_to_host(b, db, n);
  ts_to_host(c, dc, n);
  char prefix[64];
  snprintf(prefix, sizeof prefix, "stream2d_%s_w%ld", layout == 0 ? "aos" : "soa", W);
  int ok = stream_report(p, a, b, c, times, prefix, layout == 0 ? "aos" : "soa");
  ts_gpu_timer_free(&tm);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  free(a);
  free(b);
  free(c);
  return ok;
}

int main(int argc, char **argv) {
  stream_params p = stream_setup(argc, argv);
  ts_print_device();
  long W = stream2d_width(argc, argv, p.n);
  int ok = run_layout(&p, W, 0);
  ok &= run_layout(&p, W, 1);
  return ok ? 0 : 1;
}
