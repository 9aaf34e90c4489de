/*
 * cuda_cpu_shim.h — runs the test-suite's CUDA programs on the CPU, to check their answers on a machine
 * without a GPU (the harness's "cuda-cpu" development variant; never a performance number).
 * The harness compiles `clang++ -x c++ -include cuda_cpu_shim.h` after rewriting each
 * `kernel<<<grid, block>>>(args);` into `ts_cuda_launch(grid, block, [&] { kernel(args); });`.
 * Blocks run one after another on one host thread; a block's threads run as fibers switched at
 * __syncthreads (so __shared__ variables, made static, are shared by the block), or simply one after
 * another when the file never calls __syncthreads (TS_SHIM_NO_BARRIERS, set by the harness). Atomics
 * are plain read-modify-writes: everything runs on one host thread.
 */
#ifndef TS_CUDA_CPU_SHIM
#define TS_CUDA_CPU_SHIM 1
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ucontext.h>

struct dim3 {
  unsigned x, y, z;
  dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
};
struct ts_uint3 {
  unsigned x, y, z;
};
static ts_uint3 ts_shim_tid, ts_shim_bid;
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

/* A block's threads are fibers (ucontext) on one host thread: each runs until it reaches __syncthreads
 * or returns, then the next one runs; a barrier is complete when every fiber has reached it. */
struct ts_shim_fiber {
  ucontext_t ctx;
  int done;
  char *stack;
};
static ucontext_t ts_shim_sched;
static ts_shim_fiber *ts_shim_fibers;
static unsigned ts_shim_nfibers, ts_shim_cur;
static void (*ts_shim_call)(void *);
static void *ts_shim_arg;
#define TS_SHIM_STACK (256 * 1024)

static inline void __syncthreads(void) {
#ifndef TS_SHIM_NO_BARRIERS
  swapcontext(&ts_shim_fibers[ts_shim_cur].ctx, &ts_shim_sched);
#endif
}

static void ts_shim_fiber_main(void) {
  ts_shim_call(ts_shim_arg);
  ts_shim_fibers[ts_shim_cur].done = 1; /* returns to ts_shim_sched through uc_link */
}

template <class F> static void ts_shim_tramp(void *f) { (*(F *)f)(); }

template <class F> static void ts_cuda_launch(dim3 g, dim3 b, F f) {
  ts_shim_gdim = g;
  ts_shim_bdim = b;
  unsigned nt = b.x * b.y * b.z;
  ts_shim_call = ts_shim_tramp<F>;
  ts_shim_arg = &f;
#ifndef TS_SHIM_NO_BARRIERS
  if (nt > ts_shim_nfibers) {
    ts_shim_fibers = (ts_shim_fiber *)realloc(ts_shim_fibers, nt * sizeof(ts_shim_fiber));
    for (unsigned t = ts_shim_nfibers; t < nt; t++)
      ts_shim_fibers[t].stack = (char *)malloc(TS_SHIM_STACK);
    ts_shim_nfibers = nt;
  }
#endif
  for (unsigned bz = 0; bz < g.z; bz++)
    for (unsigned by = 0; by < g.y; by++)
      for (unsigned bx = 0; bx < g.x; bx++) {
        ts_shim_bid = {bx, by, bz};
#ifdef TS_SHIM_NO_BARRIERS
        for (unsigned t = 0; t < nt; t++) {
          ts_shim_tid = {t % b.x, (t / b.x) % b.y, t / (b.x * b.y)};
          f();
        }
#else
        for (unsigned t = 0; t < nt; t++) {
          ts_shim_fiber *fb = &ts_shim_fibers[t];
          getcontext(&fb->ctx);
          fb->ctx.uc_stack.ss_sp = fb->stack;
          fb->ctx.uc_stack.ss_size = TS_SHIM_STACK;
          fb->ctx.uc_link = &ts_shim_sched;
          makecontext(&fb->ctx, ts_shim_fiber_main, 0);
          fb->done = 0;
        }
        for (unsigned running = nt; running > 0;) {
          running = 0;
          for (unsigned t = 0; t < nt; t++) {
            if (ts_shim_fibers[t].done)
              continue;
            ts_shim_cur = t;
            ts_shim_tid = {t % b.x, (t / b.x) % b.y, t / (b.x * b.y)};
            swapcontext(&ts_shim_sched, &ts_shim_fibers[t].ctx);
            running += !ts_shim_fibers[t].done;
          }
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
  p->major = 0; p->minor = 0; p->multiProcessorCount = 1;
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
old = *p;
  *p += v;
  return old;
}
static inline float atomicAdd(float *p, float v) {
  float old;
old = *p;
  *p += v;
  return old;
}
static inline int atomicAdd(int *p, int v) {
  int old;
old = *p;
  *p += v;
  return old;
}
static inline unsigned atomicAdd(unsigned *p, unsigned v) {
  unsigned old;
old = *p;
  *p += v;
  return old;
}
static inline unsigned long long atomicAdd(unsigned long long *p, unsigned long long v) {
  unsigned long long old;
old = *p;
  *p += v;
  return old;
}
static inline double rsqrt(double x) { return 1.0 / sqrt(x); }
static inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
#endif
