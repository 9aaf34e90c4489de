// max reductions, hand-written CUDA: grid-stride loops (grid from the occupancy API), warp-shuffle
// trees, per-warp partials in shared memory, and one atomicMax per block (for the doubles, atomicMax on
// a 64-bit integer whose order is the doubles' order: one atomic, no compare-and-swap loop). Each launch
// is timed alone with CUDA events (the accumulator is reset and read back outside the timed interval);
// the best one counts.
#define TS_VARIANT "cuda"
#include "maxred.h"
#include "../common/ts_cuda_reduce.h"

#define MAX_THREADS 256

__global__ void __launch_bounds__(MAX_THREADS)
max_double(long n, const double *__restrict__ a, long long *__restrict__ out_key) {
  __shared__ double warp_part[MAX_THREADS / 32];
  double m = -DBL_MAX;
  for (long i = (long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x)
    m = fmax(m, a[i]);
  m = ts_warp_max(m);
  unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
  if (lane == 0)
    warp_part[warp] = m;
  __syncthreads();
  if (warp == 0) {
    m = lane < blockDim.x / 32 ? warp_part[lane] : -DBL_MAX;
    m = ts_warp_max(m);
    if (lane == 0)
      atomicMax(out_key, ts_double_to_key(m));
  }
}

__global__ void __launch_bounds__(MAX_THREADS) max_int(long n, const int *__restrict__ b, int *__restrict__ out) {
  __shared__ int warp_part[MAX_THREADS / 32];
  int m = INT_MIN;
  for (long i = (long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x)
    m = ts_max2(m, b[i]);
  m = ts_warp_max(m);
  unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
  if (lane == 0)
    warp_part[warp] = m;
  __syncthreads();
  if (warp == 0) {
    m = lane < blockDim.x / 32 ? warp_part[lane] : INT_MIN;
    m = ts_warp_max(m);
    if (lane == 0)
      atomicMax(out, m);
  }
}

int main(int argc, char **argv) {
  maxred_params p = maxred_setup(argc, argv);
  ts_print_device();
  long n = p.n;
  double *a = (double *)ts_alloc(n * sizeof(double));
  int *b = (int *)ts_alloc(n * sizeof(int));
  maxred_init(a, b, n);
  double *da = ts_dev_alloc<double>(n);
  int *db = ts_dev_alloc<int>(n), *dmi = ts_dev_alloc<int>(1);
  long long *dkey = ts_dev_alloc<long long>(1);
  ts_to_dev(da, a, n);
  ts_to_dev(db, b, n);
  unsigned blocks_d = ts_reduce_blocks(max_double, n, MAX_THREADS), blocks_i = ts_reduce_blocks(max_int, n, MAX_THREADS);
  const long long key0 = ts_host_double_to_key(-DBL_MAX);
  const int int0 = INT_MIN;
  ts_gpu_timer tm;
  ts_gpu_timer_init(&tm);
  double md = 0.0, bd = 1e300, bi = 1e300;
  int mi = 0;
  for (int it = 0; it <= p.iters; it++) { // call 0 is the warm-up
    long long key = key0;
    ts_to_dev(dkey, &key0, 1);
    ts_gpu_timer_start(&tm);
    max_double<<<blocks_d, MAX_THREADS>>>(n, da, dkey);
    double td = ts_gpu_timer_stop(&tm);
    CUDA_LAUNCH_CHECK();
    ts_to_host(&key, dkey, 1);
    md = ts_host_key_to_double(key);
    ts_to_dev(dmi, &int0, 1);
    ts_gpu_timer_start(&tm);
    max_int<<<blocks_i, MAX_THREADS>>>(n, db, dmi);
    double ti = ts_gpu_timer_stop(&tm);
    CUDA_LAUNCH_CHECK();
    ts_to_host(&mi, dmi, 1);
    if (it > 0) {
      bd = td < bd ? td : bd;
      bi = ti < bi ? ti : bi;
    }
  }
  ts_gpu_timer_free(&tm);
  int ok = maxred_report(&p, md, mi, p.iters + 1, bd, bi);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dmi);
  cudaFree(dkey);
  free(a);
  free(b);
  return ok ? 0 : 1;
}
