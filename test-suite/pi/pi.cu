// pi by the Gregory series, hand-written CUDA: a grid-stride loop (grid from the occupancy API), a
// warp-shuffle tree, per-warp partials in shared memory, and one double atomicAdd per block (sm_60 and
// later). Each launch is timed alone with CUDA events (the accumulator is reset and read back outside
// the timed interval); time_s is their mean over the timed calls.
#define TS_VARIANT "cuda"
#include "pi.h"
#include "../common/ts_cuda_reduce.h"

#define PI_THREADS 256

__global__ void __launch_bounds__(PI_THREADS) pi_kernel(long n, double *__restrict__ sum) {
  __shared__ double warp_part[PI_THREADS / 32];
  double s = 0.0;
  for (long k = (long)blockIdx.x * blockDim.x + threadIdx.x; k < n; k += (long)gridDim.x * blockDim.x)
    s += ((k & 1) ? -1.0 : 1.0) / (double)(2 * k + 1);
  s = ts_warp_sum(s);
  unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
  if (lane == 0)
    warp_part[warp] = s;
  __syncthreads();
  if (warp == 0) {
    s = lane < blockDim.x / 32 ? warp_part[lane] : 0.0;
    s = ts_warp_sum(s);
    if (lane == 0)
      atomicAdd(sum, s);
  }
}

int main(int argc, char **argv) {
  pi_params p = pi_setup(argc, argv);
  ts_print_device();
  double *dsum = ts_dev_alloc<double>(1), sum = 0.0, t = 0.0;
  unsigned blocks = ts_reduce_blocks(pi_kernel, p.n, PI_THREADS);
  ts_gpu_timer tm;
  ts_gpu_timer_init(&tm);
  for (int it = 0; it <= p.iters; it++) { // call 0 is the warm-up
    CUDA_CHECK(cudaMemset(dsum, 0, sizeof(double)));
    ts_gpu_timer_start(&tm);
    pi_kernel<<<blocks, PI_THREADS>>>(p.n, dsum);
    double tk = ts_gpu_timer_stop(&tm);
    CUDA_LAUNCH_CHECK();
    ts_to_host(&sum, dsum, 1);
    if (it > 0)
      t += tk;
  }
  ts_gpu_timer_free(&tm);
  cudaFree(dsum);
  return pi_report(&p, 4.0 * sum, p.iters + 1, t) ? 0 : 1;
}
