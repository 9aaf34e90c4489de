// Naive matrix product, hand-written CUDA: one thread per element of C in 16 x 16 blocks (threadIdx.x along
// j, so that reads of B and writes of C are coalesced); timed with CUDA events.
#define TS_VARIANT "cuda"
#include "matmul.h"
#include "../common/ts_cuda.h"

__global__ void matmul_kernel(long n, const double *__restrict__ a, const double *__restrict__ b,
                              double *__restrict__ c) {
  long j = (long)blockIdx.x * blockDim.x + threadIdx.x;
  long i = (long)blockIdx.y * blockDim.y + threadIdx.y;
  if (i < n && j < n) {
    double s = 0.0;
    for (long k = 0; k < n; k++)
      s += a[i * n + k] * b[k * n + j];
    c[i * n + j] = s;
  }
}

int main(int argc, char **argv) {
  matmul_params p = matmul_setup(argc, argv);
  ts_print_device();
  long n = p.n;
  double *a = (double *)ts_alloc(n * n * sizeof(double)), *b = (double *)ts_alloc(n * n * sizeof(double)),
         *c = (double *)ts_alloc(n * n * sizeof(double));
  matmul_init(a, b, c, n);
  double *da = ts_dev_alloc<double>(n * n), *db = ts_dev_alloc<double>(n * n), *dc = ts_dev_alloc<double>(n * n);
  ts_to_dev(da, a, n * n);
  ts_to_dev(db, b, n * n);
  dim3 block(16, 16), grid(ts_blocks(n, 16), ts_blocks(n, 16));
  matmul_kernel<<<grid, block>>>(n, da, db, dc); // warm-up
  CUDA_LAUNCH_CHECK();
  ts_gpu_timer tm;
  ts_gpu_timer_init(&tm);
  ts_gpu_timer_start(&tm);
  for (int it = 0; it < p.iters; it++)
    matmul_kernel<<<grid, block>>>(n, da, db, dc);
  double t = ts_gpu_timer_stop(&tm);
  CUDA_LAUNCH_CHECK();
  ts_to_host(c, dc, n * n);
  int ok = matmul_report(&p, c, p.iters + 1, t);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  free(a);
  free(b);
  free(c);
  return ok ? 0 : 1;
}
