/*
 * ts_cuda.h — helpers for the CUDA (.cu) versions, built with nvcc on the GPU machine:
 *   nvcc -O3 -arch=sm_90 -I test-suite/common prog.cu -o prog
 * Kernel times come from CUDA events around the launches, so they are comparable with PTXRT_PROFILE's
 * kernel times for the ptxcc versions.
 *
 * On a machine without CUDA the harness can still check these programs for right answers (its "cuda-cpu"
 * variant, a development aid, not a measurement): it rewrites `k<<<g, b>>>(args);` into a call of
 * ts_cuda_launch and compiles the file as C++ with cuda_cpu_shim.h, which defines TS_CUDA_CPU_SHIM.
 */
#ifndef TS_CUDA_H
#define TS_CUDA_H
#ifndef TS_CUDA_CPU_SHIM
#include <cuda_runtime.h>
#endif
#include <stdio.h>
#include <stdlib.h>

#define CUDA_CHECK(call)                                                                                        \
  do {                                                                                                         \
    cudaError_t e_ = (call);                                                                                   \
    if (e_ != cudaSuccess) {                                                                                   \
      fprintf(stderr, "%s:%d: CUDA error in %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_));    \
      exit(4);                                                                                                 \
    }                                                                                                          \
  } while (0)

/* Checks the last launch. */
#define CUDA_LAUNCH_CHECK() CUDA_CHECK(cudaGetLastError())

/* Blocks of `threads` needed to cover n items, capped at what a 1-D grid allows. */
static inline unsigned ts_blocks(long n, unsigned threads) {
  long b = (n + threads - 1) / threads;
  if (b < 1)
    b = 1;
  if (b > 2147483647L)
    b = 2147483647L;
  return (unsigned)b;
}

/* GPU-side interval timer on the default stream. */
typedef struct {
  cudaEvent_t start, stop;
} ts_gpu_timer;

static inline void ts_gpu_timer_init(ts_gpu_timer *t) {
  CUDA_CHECK(cudaEventCreate(&t->start));
  CUDA_CHECK(cudaEventCreate(&t->stop));
}
static inline void ts_gpu_timer_start(ts_gpu_timer *t) { CUDA_CHECK(cudaEventRecord(t->start, 0)); }
/* Seconds since ts_gpu_timer_start; waits for the GPU. */
static inline double ts_gpu_timer_stop(ts_gpu_timer *t) {
  float ms = 0;
  CUDA_CHECK(cudaEventRecord(t->stop, 0));
  CUDA_CHECK(cudaEventSynchronize(t->stop));
  CUDA_CHECK(cudaEventElapsedTime(&ms, t->start, t->stop));
  return 1e-3 * (double)ms;
}
static inline void ts_gpu_timer_free(ts_gpu_timer *t) {
  cudaEventDestroy(t->start);
  cudaEventDestroy(t->stop);
}

/* Device memory filled with a poison pattern, so that a missing copy shows as a wrong answer. */
template <class T> static inline T *ts_dev_alloc(size_t count) {
  T *p = nullptr;
  CUDA_CHECK(cudaMalloc((void **)&p, count * sizeof(T) + 1));
  CUDA_CHECK(cudaMemset(p, 0xff, count * sizeof(T) + 1));
  return p;
}
template <class T> static inline void ts_to_dev(T *d, const T *h, size_t count) {
  CUDA_CHECK(cudaMemcpy(d, h, count * sizeof(T), cudaMemcpyHostToDevice));
}
template <class T> static inline void ts_to_host(T *h, const T *d, size_t count) {
  CUDA_CHECK(cudaMemcpy(h, d, count * sizeof(T), cudaMemcpyDeviceToHost));
}

static inline void ts_print_device(void) {
  cudaDeviceProp prop;
  int dev = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
  printf(" device: %s (sm_%d%d, %d SMs)\n", prop.name, prop.major, prop.minor, prop.multiProcessorCount);
}

#endif
