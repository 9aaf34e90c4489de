// pi by the Gregory series, hand-written CUDA: a grid-stride loop, a shared-memory tree reduction in each
// block and one double atomicAdd per block (sm_60 and later); timed with CUDA events.
#define TS_VARIANT "cuda"
#include "pi.h"
#include "../common/ts_cuda.h"

#define PI_THREADS 256

__global__ void pi_kernel(long n, double *sum) {
  __shared__ double part[PI_THREADS];
  double s = 0.0;
  for (long k = (long)blockIdx.x * blockDim.x + threadIdx.x; k < n; k += (long)gridDim.x * blockDim.x)
    s += ((k & 1) ? -1.0 : 1.0) / (double)(2 * k + 1);
  part[threadIdx.x] = s;
  __syncthreads();
  for (unsigned w = blockDim.x / 2; w > 0; w /= 2) {
    if (threadIdx.x < w)
      part[threadIdx.x] += part[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    atomicAdd(sum, part[0]);
}

static double run(long n, double *dsum, unsigned blocks) {
  double sum = 0.0;
  ts_to_dev(dsum, &sum, 1);
  pi_kernel<<<blocks, PI_THREADS>>>(n, dsum);
  CUDA_LAUNCH_CHECK();
  ts_to_host(&sum, dsum, 1);
  return 4.0 * sum;
}

int main(int argc, char **argv) {
  pi_params p = pi_setup(argc, argv);
  ts_print_device();
  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  unsigned blocks = ts_blocks(p.n, PI_THREADS);
  unsigned cap = 32u * (unsigned)(prop.multiProcessorCount > 0 ? prop.multiProcessorCount : 1);
  if (blocks > cap)
    blocks = cap;
  double *dsum = ts_dev_alloc<double>(1);
  double pi = run(p.n, dsum, blocks); // warm-up
  ts_gpu_timer tm;
  ts_gpu_timer_init(&tm);
  ts_gpu_timer_start(&tm);
  for (int it = 0; it < p.iters; it++)
    pi = run(p.n, dsum, blocks);
  double t = ts_gpu_timer_stop(&tm);
  cudaFree(dsum);
  return pi_report(&p, pi, p.iters + 1, t) ? 0 : 1;
}
