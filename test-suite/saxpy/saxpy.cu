// saxpy, hand-written CUDA: one thread per element, 256 threads per block, timed with CUDA events.
#define TS_VARIANT "cuda"
#include "saxpy.h"
#include "../common/ts_cuda.h"

__global__ void saxpy_kernel(long n, float a, const float *__restrict__ x, float *__restrict__ y) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

int main(int argc, char **argv) {
  saxpy_params p = saxpy_setup(argc, argv);
  ts_print_device();
  long n = p.n;
  float *x = (float *)ts_alloc(n * sizeof(float)), *y = (float *)ts_alloc(n * sizeof(float));
  saxpy_init(x, y, n);
  float *dx = ts_dev_alloc<float>(n), *dy = ts_dev_alloc<float>(n);
  ts_to_dev(dx, x, n);
  ts_to_dev(dy, y, n);
  const unsigned bs = 256, nb = ts_blocks(n, bs);
  saxpy_kernel<<<nb, bs>>>(n, SAXPY_A, dx, dy); // warm-up
  CUDA_LAUNCH_CHECK();
  ts_gpu_timer tm;
  ts_gpu_timer_init(&tm);
  ts_gpu_timer_start(&tm);
  for (int it = 0; it < p.iters; it++)
    saxpy_kernel<<<nb, bs>>>(n, SAXPY_A, dx, dy);
  double t = ts_gpu_timer_stop(&tm);
  CUDA_LAUNCH_CHECK();
  ts_to_host(y, dy, n);
  int ok = saxpy_report(&p, y, p.iters + 1, t);
  cudaFree(dx);
  cudaFree(dy);
  free(x);
  free(y);
  return ok ? 0 : 1;
}
