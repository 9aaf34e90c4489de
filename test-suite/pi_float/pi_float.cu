// pi by the Gregory series in float, hand-written CUDA: a grid-stride loop (grid from the occupancy
// API), a warp-shuffle tree, per-warp partials in shared memory, and one float atomicAdd per block. Each
// launch is timed alone with CUDA events (the accumulator is reset and read back outside the timed
// interval); the best one counts.
#define TS_VARIANT "cuda"
#include "pi_float.h"
#include "../common/ts_cuda_reduce.h"

#define PI_THREADS 256

__global__ void __launch_bounds__(PI_THREADS) pi_float_kernel(long n, float *__restrict__ out) {
  __shared__ float warp_part[PI_THREADS / 32];
  float s = 0.0f;
  for (long k = (long)blockIdx.x * blockDim.x + threadIdx.x; k < n; k += (long)gridDim.x * blockDim.x)
    s += ((k & 1) ? -1.0f : 1.0f) / (float)(2 * k + 1);
  s = ts_warp_sum(s);
  unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
  if (lane == 0)
    warp_part[warp] = s;
  __syncthreads();
  if (warp == 0) {
    s = lane < blockDim.x / 32 ? warp_part[lane] : 0.0f;
    s = ts_warp_sum(s);
    if (lane == 0)
      atomicAdd(out, s);
  }
}

int main(int argc, char **argv) {
  pi_float_params p = pi_float_setup(argc, argv);
  ts_print_device();
  float *dsum = ts_dev_alloc<float>(1), sum = 0.0f;
  unsigned blocks = ts_reduce_blocks(pi_float_kernel, p.n, PI_THREADS);
  ts_gpu_timer tm;
  ts_gpu_timer_init(&tm);
  double best = 1e300;
  for (int it = 0; it <= p.iters; it++) { // call 0 is the warm-up
    CUDA_CHECK(cudaMemset(dsum, 0, sizeof(float)));
    ts_gpu_timer_start(&tm);
    pi_float_kernel<<<blocks, PI_THREADS>>>(p.n, dsum);
    double t = ts_gpu_timer_stop(&tm);
    CUDA_LAUNCH_CHECK();
    ts_to_host(&sum, dsum, 1);
    if (it > 0 && t < best)
      best = t;
  }
  ts_gpu_timer_free(&tm);
  cudaFree(dsum);
  return pi_float_report(&p, sum, p.iters + 1, best) ? 0 : 1;
}
