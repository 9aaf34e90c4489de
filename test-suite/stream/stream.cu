// STREAM, hand-written CUDA: one thread per element, 256 threads per block; each kernel timed with CUDA
// events. Build: nvcc -O3 -arch=sm_90 stream.cu -o stream_cuda
#define TS_VARIANT "cuda"
#include "stream.h"
#include "../common/ts_cuda.h"

__global__ void stream_copy(const double *__restrict__ a, double *__restrict__ c, long n) {
  long j = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (j < n)
    c[j] = a[j];
}
__global__ void stream_scale(double *__restrict__ b, const double *__restrict__ c, double q, long n) {
  long j = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (j < n)
    b[j] = q * c[j];
}
__global__ void stream_add(const double *__restrict__ a, const double *__restrict__ b, double *__restrict__ c, long n) {
  long j = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (j < n)
    c[j] = a[j] + b[j];
}
__global__ void stream_triad(double *__restrict__ a, const double *__restrict__ b, const double *__restrict__ c, double q,
                             long n) {
  long j = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (j < n)
    a[j] = b[j] + q * c[j];
}

int main(int argc, char **argv) {
  stream_params p = stream_setup(argc, argv);
  ts_print_device();
  long n = p.n;
  double *a = (double *)ts_alloc(n * sizeof(double)), *b = (double *)ts_alloc(n * sizeof(double)),
         *c = (double *)ts_alloc(n * sizeof(double));
  double times[4][64];
  stream_init(a, b, c, n);
  double *da = ts_dev_alloc<double>(n), *db = ts_dev_alloc<double>(n), *dc = ts_dev_alloc<double>(n);
  ts_to_dev(da, a, n);
  ts_to_dev(db, b, n);
  ts_to_dev(dc, c, n);
  const unsigned bs = 256, nb = ts_blocks(n, bs);
  ts_gpu_timer tm;
  ts_gpu_timer_init(&tm);
  for (int t = 0; t < p.ntimes; t++) {
    ts_gpu_timer_start(&tm);
    stream_copy<<<nb, bs>>>(da, dc, n);
    times[0][t] = ts_gpu_timer_stop(&tm);
    ts_gpu_timer_start(&tm);
    stream_scale<<<nb, bs>>>(db, dc, STREAM_SCALAR, n);
    times[1][t] = ts_gpu_timer_stop(&tm);
    ts_gpu_timer_start(&tm);
    stream_add<<<nb, bs>>>(da, db, dc, n);
    times[2][t] = ts_gpu_timer_stop(&tm);
    ts_gpu_timer_start(&tm);
    stream_triad<<<nb, bs>>>(da, db, dc, STREAM_SCALAR, n);
    times[3][t] = ts_gpu_timer_stop(&tm);
    CUDA_LAUNCH_CHECK();
  }
  ts_to_host(a, da, n);
  ts_to_host(b, db, n);
  ts_to_host(c, dc, n);
  int ok = stream_report(&p, a, b, c, times, "stream", "stream");
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  free(a);
  free(b);
  free(c);
  return ok ? 0 : 1;
}
