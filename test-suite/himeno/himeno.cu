// Himeno-style 19-point Jacobi, hand-written CUDA: one thread per interior point, 64 x 4 threads per block
// along k and j (k contiguous), blocks along i; gosa reduced in shared memory and added with one double
// atomicAdd per block; a second kernel copies wrk2 into p. Timed with CUDA events.
#define TS_VARIANT "cuda"
#include "himeno.h"
#include "../common/ts_cuda.h"

#define HX 64
#define HY 4

__global__ void himeno_jacobi(long mi, long mj, long mk, const float *__restrict__ a, const float *__restrict__ b,
                              const float *__restrict__ c, const float *__restrict__ p, const float *__restrict__ bnd,
                              const float *__restrict__ wrk1, float *__restrict__ wrk2, float omega,
                              double *__restrict__ gosa) {
  __shared__ double part[HX * HY];
  long k = 1 + (long)blockIdx.x * blockDim.x + threadIdx.x;
  long j = 1 + (long)blockIdx.y * blockDim.y + threadIdx.y;
  long i = 1 + (long)blockIdx.z;
  double g = 0.0;
  if (k < mk - 2 && j < mj - 2 && i < mi - 2) {
    float s0 = P4(a, 0, i, j, k) * P3(p, i + 1, j, k) + P4(a, 1, i, j, k) * P3(p, i, j + 1, k) +
               P4(a, 2, i, j, k) * P3(p, i, j, k + 1) +
               P4(b, 0, i, j, k) * (P3(p, i + 1, j + 1, k) - P3(p, i + 1, j - 1, k) - P3(p, i - 1, j + 1, k) +
                                    P3(p, i - 1, j - 1, k)) +
               P4(b, 1, i, j, k) * (P3(p, i, j + 1, k + 1) - P3(p, i, j - 1, k + 1) - P3(p, i, j + 1, k - 1) +
                                    P3(p, i, j - 1, k - 1)) +
               P4(b, 2, i, j, k) * (P3(p, i + 1, j, k + 1) - P3(p, i - 1, j, k + 1) - P3(p, i + 1, j, k - 1) +
                                    P3(p, i - 1, j, k - 1)) +
               P4(c, 0, i, j, k) * P3(p, i - 1, j, k) + P4(c, 1, i, j, k) * P3(p, i, j - 1, k) +
               P4(c, 2, i, j, k) * P3(p, i, j, k - 1) + P3(wrk1, i, j, k);
    float ss = (s0 * P4(a, 3, i, j, k) - P3(p, i, j, k)) * P3(bnd, i, j, k);
    g = (double)(ss * ss);
    P3(wrk2, i, j, k) = P3(p, i, j, k) + omega * ss;
  }
  unsigned t = threadIdx.y * blockDim.x + threadIdx.x;
  part[t] = g;
  __syncthreads();
  for (unsigned w = HX * HY / 2; w > 0; w /= 2) {
    if (t < w)
      part[t] += part[t + w];
    __syncthreads();
  }
  if (t == 0)
    atomicAdd(gosa, part[0]);
}

__global__ void himeno_copy(long mi, long mj, long mk, float *__restrict__ p, const float *__restrict__ wrk2) {
  long k = 1 + (long)blockIdx.x * blockDim.x + threadIdx.x;
  long j = 1 + (long)blockIdx.y * blockDim.y + threadIdx.y;
  long i = 1 + (long)blockIdx.z;
  if (k < mk - 2 && j < mj - 2 && i < mi - 2)
    P3(p, i, j, k) = P3(wrk2, i, j, k);
}

int main(int argc, char **argv) {
  himeno_params hp = himeno_setup(argc, argv);
  ts_print_device();
  long mi = hp.mi, mj = hp.mj, mk = hp.mk, n3 = mi * mj * mk;
  float *a = (float *)ts_alloc(4 * n3 * sizeof(float)), *b = (float *)ts_alloc(3 * n3 * sizeof(float)),
        *c = (float *)ts_alloc(3 * n3 * sizeof(float)), *p = (float *)ts_alloc(n3 * sizeof(float)),
        *bnd = (float *)ts_alloc(n3 * sizeof(float)), *wrk1 = (float *)ts_alloc(n3 * sizeof(float)),
        *wrk2 = (float *)ts_alloc(n3 * sizeof(float));
  himeno_init(&hp, a, b, c, p, bnd, wrk1, wrk2);
  float *da = ts_dev_alloc<float>(4 * n3), *db = ts_dev_alloc<float>(3 * n3), *dc = ts_dev_alloc<float>(3 * n3),
        *dp = ts_dev_alloc<float>(n3), *dbnd = ts_dev_alloc<float>(n3), *dwrk1 = ts_dev_alloc<float>(n3),
        *dwrk2 = ts_dev_alloc<float>(n3);
  double *dgosa = ts_dev_alloc<double>(1);
  ts_to_dev(da, a, 4 * n3);
  ts_to_dev(db, b, 3 * n3);
  ts_to_dev(dc, c, 3 * n3);
  ts_to_dev(dp, p, n3);
  ts_to_dev(dbnd, bnd, n3);
  ts_to_dev(dwrk1, wrk1, n3);
  dim3 block(HX, HY), grid(ts_blocks(mk - 3, HX), ts_blocks(mj - 3, HY), (unsigned)(mi - 3));
  double gosa = 0.0;
  ts_gpu_timer tm;
  ts_gpu_timer_init(&tm);
  ts_gpu_timer_start(&tm);
  for (int n = 0; n < hp.nn; n++) {
    CUDA_CHECK(cudaMemset(dgosa, 0, sizeof(double)));
    himeno_jacobi<<<grid, block>>>(mi, mj, mk, da, db, dc, dp, dbnd, dwrk1, dwrk2, HIMENO_OMEGA, dgosa);
    himeno_copy<<<grid, block>>>(mi, mj, mk, dp, dwrk2);
    ts_to_host(&gosa, dgosa, 1); // the benchmark has gosa on the host after every iteration
  }
  double t = ts_gpu_timer_stop(&tm);
  CUDA_LAUNCH_CHECK();
  ts_to_host(p, dp, n3);
  int ok = himeno_report(&hp, gosa, p, t);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  cudaFree(dp);
  cudaFree(dbnd);
  cudaFree(dwrk1);
  cudaFree(dwrk2);
  cudaFree(dgosa);
  free(a);
  free(b);
  free(c);
  free(p);
  free(bnd);
  free(wrk1);
  free(wrk2);
  return ok ? 0 : 1;
}
