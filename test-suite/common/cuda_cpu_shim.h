/*
 * cuda_cpu_shim.h — runs the test-suite's CUDA programs on the CPU, to check their answers on a machine
 * without a GPU (the harness's "cuda-cpu" development variant; never a performance number).
 * The harness compiles `clang++ -x c++ -fopenmp -include cuda_cpu_shim.h` after rewriting each
 * `kernel<<<grid, block>>>(args);` into `ts_cuda_launch(grid, block, [&] { kernel(args); });`.
 * Blocks run one after another; a block's threads run as an OpenMP team (so __syncthreads is an OpenMP
 * barrier and __shared__ variables, made static, are shared by the team), or one after another when
 * the file never calls __syncthreads (TS_SHIM_NO_BARRIERS, set by the harness).
 */
#ifndef TS_CUDA_CPU_SHIM
#define TS_CUDA_CPU_SHIM 1
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <omp.h>

struct dim3 {
  unsigned x, y, z;
  dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
};
struct ts_uint3 {
  unsigned x, y, z;
};
static thread_local ts_uint3 ts_shim_tid, ts_shim_bid;
static dim3 ts_shim_bdim, ts_shim_gdim;
#define threadIdx ts_shim_tid
#define blockIdx ts_shim_bid
#define blockDim ts_shim_bdim
#define gridDim ts_shim_gdim
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __shared__ static

static inline void __syncthreads(void) {
#pragma omp barrier
}

template <class F> static void ts_cuda_launch(dim3 g, dim3 b, F f) {
  ts_shim_gdim = g;
  ts_shim_bdim = b;
  unsigned nt = b.x * b.y * b.z;
  for (unsigned bz = 0; bz < g.z; bz++)
    for (unsigned by = 0; by < g.y; by++)
      for (unsigned bx = 0; bx < g.x; bx++) {
#ifdef TS_SHIM_NO_BARRIERS
        for (unsigned t = 0; t < nt; t++) {
          ts_shim_tid = {t % b.x, (t / b.x) % b.y, t / (b.x * b.y)};
          ts_shim_bid = {bx, by, bz};
          f();
        }
#else
#pragma omp parallel num_threads(nt)
        {
          if ((unsigned)omp_get_num_threads() != nt) {
            fprintf(stderr, "cuda_cpu_shim: could not start %u threads for a block\n", nt);
            abort();
          }
          unsigned t = (unsigned)omp_get_thread_num();
          ts_shim_tid = {t % b.x, (t / b.x) % b.y, t / (b.x * b.y)};
          ts_shim_bid = {bx, by, bz};
          f();
        }
#endif
      }
}

typedef int cudaError_t;
enum { cudaSuccess = 0, cudaErrorMemoryAllocation = 2 };
enum cudaMemcpyKind { cudaMemcpyHostToHost, cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost, cudaMemcpyDeviceToDevice };
typedef struct ts_shim_event {
  double t;
} *cudaEvent_t;
typedef void *cudaStream_t;
struct cudaDeviceProp {
  char name[256];
  int major, minor, multiProcessorCount;
};

static inline double ts_shim_now(void) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
static inline const char *cudaGetErrorString(cudaError_t e) { return e ? "error" : "no error"; }
static inline cudaError_t cudaGetLastError(void) { return cudaSuccess; }
static inline cudaError_t cudaDeviceSynchronize(void) { return cudaSuccess; }
static inline cudaError_t cudaGetDevice(int *d) { *d = 0; return cudaSuccess; }
static inline cudaError_t cudaGetDeviceProperties(cudaDeviceProp *p, int) {
  strcpy(p->name, "CPU shim (not a GPU)");
  p->major = 0; p->minor = 0; p->multiProcessorCount = omp_get_num_procs();
  return cudaSuccess;
}
static inline cudaError_t cudaMalloc(void **p, size_t n) {
  *p = malloc(n);
  return *p ? cudaSuccess : cudaErrorMemoryAllocation;
}
static inline cudaError_t cudaFree(void *p) { free(p); return cudaSuccess; }
static inline cudaError_t cudaMemset(void *p, int v, size_t n) { memset(p, v, n); return cudaSuccess; }
static inline cudaError_t cudaMemcpy(void *d, const void *s, size_t n, cudaMemcpyKind) { memcpy(d, s, n); return cudaSuccess; }
static inline cudaError_t cudaEventCreate(cudaEvent_t *e) { *e = new ts_shim_event{0}; return cudaSuccess; }
static inline cudaError_t cudaEventDestroy(cudaEvent_t e) { delete e; return cudaSuccess; }
static inline cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t = 0) { e->t = ts_shim_now(); return cudaSuccess; }
static inline cudaError_t cudaEventSynchronize(cudaEvent_t) { return cudaSuccess; }
static inline cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b) {
  *ms = (float)(1e3 * (b->t - a->t));
  return cudaSuccess;
}

static inline double atomicAdd(double *p, double v) {
  double old;
#pragma omp atomic capture
  { old = *p; *p += v; }
  return old;
}
static inline float atomicAdd(float *p, float v) {
  float old;
#pragma omp atomic capture
  { old = *p; *p += v; }
  return old;
}
static inline int atomicAdd(int *p, int v) {
  int old;
#pragma omp atomic capture
  { old = *p; *p += v; }
  return old;
}
static inline unsigned atomicAdd(unsigned *p, unsigned v) {
  unsigned old;
#pragma omp atomic capture
  { old = *p; *p += v; }
  return old;
}
static inline unsigned long long atomicAdd(unsigned long long *p, unsigned long long v) {
  unsigned long long old;
#pragma omp atomic capture
  { old = *p; *p += v; }
  return old;
}
static inline double rsqrt(double x) { return 1.0 / sqrt(x); }
static inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
#endif
