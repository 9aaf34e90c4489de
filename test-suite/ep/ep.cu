// NPB EP, hand-written CUDA: one thread per chunk of pairs, 128 threads per block; sx, sy and the ten
// annulus counts reduced in shared memory and added with one atomicAdd each per block. Timed with CUDA
// events.
#define TS_VARIANT "cuda"
#include "ep.h"
#include "../common/ts_cuda.h"

#define EP_THREADS 128

__global__ void ep_kernel(long nchunks, double an, double *out /* sx, sy, q[10] */) {
  __shared__ double part[EP_NQ + 2][EP_THREADS];
  double v[EP_NQ + 2];
  for (int k = 0; k < EP_NQ + 2; k++)
    v[k] = 0.0;
  long c = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (c < nchunks) {
    double seed = npb_skip(EP_SEED, an, c);
    for (long i = 0; i < EP_CHUNK; i++) {
      double x1 = 2.0 * npb_randlc(&seed, EP_A) - 1.0;
      double x2 = 2.0 * npb_randlc(&seed, EP_A) - 1.0;
      double t = x1 * x1 + x2 * x2;
      if (t <= 1.0) {
        double f = sqrt(-2.0 * log(t) / t);
        double gx = x1 * f, gy = x2 * f;
        int l = (int)fmax(fabs(gx), fabs(gy));
        v[2 + l] += 1.0;
        v[0] += gx;
        v[1] += gy;
      }
    }
  }
  for (int k = 0; k < EP_NQ + 2; k++)
    part[k][threadIdx.x] = v[k];
  __syncthreads();
  for (unsigned w = EP_THREADS / 2; w > 0; w /= 2) {
    if (threadIdx.x < w)
      for (int k = 0; k < EP_NQ + 2; k++)
        part[k][threadIdx.x] += part[k][threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x < EP_NQ + 2)
    atomicAdd(&out[threadIdx.x], part[threadIdx.x][0]);
}

int main(int argc, char **argv) {
  ep_params p = ep_setup(argc, argv);
  ts_print_device();
  double out[EP_NQ + 2] = {0};
  double *dout = ts_dev_alloc<double>(EP_NQ + 2);
  ts_to_dev(dout, out, EP_NQ + 2);
  ts_gpu_timer tm;
  ts_gpu_timer_init(&tm);
  ts_gpu_timer_start(&tm);
  ep_kernel<<<ts_blocks(p.nchunks, EP_THREADS), EP_THREADS>>>(p.nchunks, p.an, dout);
  double t = ts_gpu_timer_stop(&tm);
  CUDA_LAUNCH_CHECK();
  ts_to_host(out, dout, EP_NQ + 2);
  cudaFree(dout);
  return ep_report(&p, out[0], out[1], out + 2, t) ? 0 : 1;
}
