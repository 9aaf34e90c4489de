/*
 * ts_cuda_reduce.h — the warp-level pieces of the reduction benchmarks' CUDA versions (dot, maxred,
 * pi, pi_float), written the way a CUDA programmer writes a fast reduction:
 *   grid-stride loop (grid from the occupancy API: every SM full, no more)  ->  one value per thread
 *   warp tree by __shfl_down_sync (5 steps)                                 ->  one value per warp
 *   lane 0 of each warp to __shared__, __syncthreads, warp 0 reduces them   ->  one value per block
 *   one atomic per block (atomicAdd; atomicMax, on an order-preserving integer image for double)
 * The block-level part (shared memory, barrier, atomic) is written out in each kernel.
 *
 * Under the harness's CPU shim (cuda_cpu_shim.h, "cuda-cpu" variant, --dev) the shuffles, atomicMax
 * and the bit casts are emulated below: a shuffle is two barriers of the shim's fibers (every lane
 * publishes its value, then every lane reads its partner's), which is right as long as every thread of
 * the block, or every thread still running, takes part, as in these kernels.
 */
#ifndef TS_CUDA_REDUCE_H
#define TS_CUDA_REDUCE_H
#include "ts_cuda.h"

#ifdef TS_CUDA_CPU_SHIM
static unsigned long long ts_shim_lane_value[1024];
template <class T> static inline T __shfl_down_sync(unsigned, T v, unsigned delta, int = 32) {
  static_assert(sizeof(T) <= sizeof(unsigned long long), "shuffle of a value wider than 64 bits");
  unsigned t = ts_shim_cur, nt = blockDim.x * blockDim.y * blockDim.z;
  memcpy(&ts_shim_lane_value[t], &v, sizeof v);
  __syncthreads(); /* every lane has published */
  T r = v;
  if ((t & 31u) + delta < 32u && t + delta < nt)
    memcpy(&r, &ts_shim_lane_value[t + delta], sizeof r);
  __syncthreads(); /* every lane has read before the next shuffle overwrites */
  return r;
}
static inline int atomicMax(int *p, int v) {
  int old = *p;
  if (v > old)
    *p = v;
  return old;
}
static inline long long atomicMax(long long *p, long long v) {
  long long old = *p;
  if (v > old)
    *p = v;
  return old;
}
static inline long long __double_as_longlong(double d) {
  long long b;
  memcpy(&b, &d, sizeof b);
  return b;
}
static inline double __longlong_as_double(long long b) {
  double d;
  memcpy(&d, &b, sizeof d);
  return d;
}
#endif

__device__ __forceinline__ double ts_max2(double a, double b) { return fmax(a, b); }
__device__ __forceinline__ float ts_max2(float a, float b) { return fmaxf(a, b); }
__device__ __forceinline__ int ts_max2(int a, int b) { return a > b ? a : b; }

/* Sum / max over the 32 lanes of a full warp; lane 0 holds the result. */
template <class T> __device__ __forceinline__ T ts_warp_sum(T v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}
template <class T> __device__ __forceinline__ T ts_warp_max(T v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1)
    v = ts_max2(v, __shfl_down_sync(0xffffffffu, v, o));
  return v;
}

/* A 64-bit integer whose signed order is the order of the (non-NaN) doubles, and back: atomicMax on
 * long long (sm_35 and later) is then a double max in one atomic, no compare-and-swap loop. */
__host__ __device__ __forceinline__ long long ts_double_key(long long bits) {
  return bits >= 0 ? bits : bits ^ 0x7fffffffffffffffLL;
}
__device__ __forceinline__ long long ts_double_to_key(double d) { return ts_double_key(__double_as_longlong(d)); }
static inline long long ts_host_double_to_key(double d) {
  long long b;
  memcpy(&b, &d, sizeof b);
  return ts_double_key(b);
}
static inline double ts_host_key_to_double(long long k) {
  long long b = ts_double_key(k);
  double d;
  memcpy(&d, &b, sizeof d);
  return d;
}

/* Blocks for a grid-stride reduction kernel of `threads` threads: as many as are resident at once on
 * the whole device (occupancy API), and no more than the work needs. */
template <class K> static inline unsigned ts_reduce_blocks(K kernel, long n, unsigned threads) {
  unsigned b = ts_blocks(n, threads);
#ifdef TS_CUDA_CPU_SHIM
  (void)kernel;
  unsigned cap = 64; /* the shim runs blocks one after another on one host thread */
#else
  int per_sm = 0, dev = 0, sms = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, (int)threads, 0));
  CUDA_CHECK(cudaGetDevice(&dev));
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  unsigned cap = (unsigned)((per_sm > 0 ? per_sm : 1) * (sms > 0 ? sms : 1));
#endif
  return b < cap ? b : cap;
}

#endif
