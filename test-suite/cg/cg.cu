// NPB CG, hand-written CUDA: one thread per row or vector element, 256 threads per block; each dot
// product reduced in shared memory with one double atomicAdd per block into a device scalar that is
// copied back for the host's scalar arithmetic (as the OpenMP/OpenACC reductions do). Timed with CUDA
// events.
#define TS_VARIANT "cuda"
#include "cg.h"
#include "../common/ts_cuda.h"

#define CG_THREADS 256

// Adds v over the block into *out (every thread of the block must call it).
__device__ void cg_block_add(double v, double *out) {
  __shared__ double part[CG_THREADS];
  part[threadIdx.x] = v;
  __syncthreads();
  for (unsigned w = CG_THREADS / 2; w > 0; w /= 2) {
    if (threadIdx.x < w)
      part[threadIdx.x] += part[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    atomicAdd(out, part[0]);
  __syncthreads();
}

__global__ void cg_init(long n, const double *x, double *z, double *p, double *q, double *r, double *rho) {
  long j = (long)blockIdx.x * blockDim.x + threadIdx.x;
  double v = 0.0;
  if (j < n) {
    q[j] = 0.0;
    z[j] = 0.0;
    r[j] = x[j];
    p[j] = x[j];
    v = x[j] * x[j];
  }
  cg_block_add(v, rho);
}
__global__ void cg_spmv_dot(long n, const int *__restrict__ rowstr, const int *__restrict__ colidx,
                            const double *__restrict__ a, const double *__restrict__ p, double *__restrict__ q,
                            double *d) {
  long j = (long)blockIdx.x * blockDim.x + threadIdx.x;
  double v = 0.0;
  if (j < n) {
    double s = 0.0;
    for (int k = rowstr[j]; k < rowstr[j + 1]; k++)
      s += a[k] * p[colidx[k]];
    q[j] = s;
    v = p[j] * s;
  }
  cg_block_add(v, d);
}
__global__ void cg_update_zr(long n, double alpha, const double *__restrict__ p, const double *__restrict__ q,
                             double *__restrict__ z, double *__restrict__ r, double *rho) {
  long j = (long)blockIdx.x * blockDim.x + threadIdx.x;
  double v = 0.0;
  if (j < n) {
    z[j] += alpha * p[j];
    r[j] -= alpha * q[j];
    v = r[j] * r[j];
  }
  cg_block_add(v, rho);
}
__global__ void cg_update_p(long n, double beta, const double *__restrict__ r, double *__restrict__ p) {
  long j = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (j < n)
    p[j] = r[j] + beta * p[j];
}
__global__ void cg_resid(long n, const int *__restrict__ rowstr, const int *__restrict__ colidx,
                         const double *__restrict__ a, const double *__restrict__ x, const double *__restrict__ z,
                         double *__restrict__ r, double *sum) {
  long j = (long)blockIdx.x * blockDim.x + threadIdx.x;
  double v = 0.0;
  if (j < n) {
    double s = 0.0;
    for (int k = rowstr[j]; k < rowstr[j + 1]; k++)
      s += a[k] * z[colidx[k]];
    r[j] = s;
    v = (x[j] - s) * (x[j] - s);
  }
  cg_block_add(v, sum);
}
__global__ void cg_norms(long n, const double *__restrict__ x, const double *__restrict__ z, double *t) {
  long j = (long)blockIdx.x * blockDim.x + threadIdx.x;
  double v1 = 0.0, v2 = 0.0;
  if (j < n) {
    v1 = x[j] * z[j];
    v2 = z[j] * z[j];
  }
  cg_block_add(v1, &t[0]);
  cg_block_add(v2, &t[1]);
}
__global__ void cg_scale(long n, double s, const double *__restrict__ z, double *__restrict__ x) {
  long j = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (j < n)
    x[j] = s * z[j];
}
__global__ void cg_ones(long n, double *x) {
  long j = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (j < n)
    x[j] = 1.0;
}

struct cg_dev {
  long n;
  int *rowstr, *colidx;
  double *a, *x, *z, *p, *q, *r, *scal;
};

// A reduction: zero the device scalars, launch, then read them back.
static void cg_scal_zero(const cg_dev *g) { CUDA_CHECK(cudaMemset(g->scal, 0, 2 * sizeof(double))); }
static double cg_scal_get(const cg_dev *g, double *second) {
  double h[2];
  CUDA_LAUNCH_CHECK();
  ts_to_host(h, g->scal, 2);
  if (second)
    *second = h[1];
  return h[0];
}

static double cg_step(const cg_dev *g, double shift, double *rnorm) {
  long n = g->n;
  unsigned nb = ts_blocks(n, CG_THREADS);
  cg_scal_zero(g);
  cg_init<<<nb, CG_THREADS>>>(n, g->x, g->z, g->p, g->q, g->r, g->scal);
  double rho = cg_scal_get(g, NULL);
  for (int cgit = 0; cgit < CG_ITMAX; cgit++) {
    cg_scal_zero(g);
    cg_spmv_dot<<<nb, CG_THREADS>>>(n, g->rowstr, g->colidx, g->a, g->p, g->q, g->scal);
    double d = cg_scal_get(g, NULL);
    double alpha = rho / d, rho0 = rho;
    cg_scal_zero(g);
    cg_update_zr<<<nb, CG_THREADS>>>(n, alpha, g->p, g->q, g->z, g->r, g->scal);
    rho = cg_scal_get(g, NULL);
    double beta = rho / rho0;
    cg_update_p<<<nb, CG_THREADS>>>(n, beta, g->r, g->p);
  }
  cg_scal_zero(g);
  cg_resid<<<nb, CG_THREADS>>>(n, g->rowstr, g->colidx, g->a, g->x, g->z, g->r, g->scal);
  *rnorm = sqrt(cg_scal_get(g, NULL));
  cg_scal_zero(g);
  cg_norms<<<nb, CG_THREADS>>>(n, g->x, g->z, g->scal);
  double t2, t1 = cg_scal_get(g, &t2);
  t2 = 1.0 / sqrt(t2);
  cg_scale<<<nb, CG_THREADS>>>(n, t2, g->z, g->x);
  return shift + 1.0 / t1;
}

int main(int argc, char **argv) {
  cg_params cp = cg_setup(argc, argv);
  ts_print_device();
  cg_matrix A = cg_makea(&cp);
  long n = cp.na;
  cg_dev g;
  g.n = n;
  g.rowstr = ts_dev_alloc<int>(n + 1);
  g.colidx = ts_dev_alloc<int>(A.nnz);
  g.a = ts_dev_alloc<double>(A.nnz);
  g.x = ts_dev_alloc<double>(n);
  g.z = ts_dev_alloc<double>(n);
  g.p = ts_dev_alloc<double>(n);
  g.q = ts_dev_alloc<double>(n);
  g.r = ts_dev_alloc<double>(n);
  g.scal = ts_dev_alloc<double>(2);
  ts_to_dev(g.rowstr, A.rowstr, n + 1);
  ts_to_dev(g.colidx, A.colidx, A.nnz);
  ts_to_dev(g.a, A.a, A.nnz);
  unsigned nb = ts_blocks(n, CG_THREADS);
  double zeta = 0.0, rnorm = 0.0;
  cg_ones<<<nb, CG_THREADS>>>(n, g.x);
  cg_step(&g, cp.shift, &rnorm); // untimed
  cg_ones<<<nb, CG_THREADS>>>(n, g.x);
  ts_gpu_timer tm;
  ts_gpu_timer_init(&tm);
  ts_gpu_timer_start(&tm);
  for (int it = 1; it <= cp.niter; it++) {
    zeta = cg_step(&g, cp.shift, &rnorm);
    if (it == 1 || it == cp.niter)
      printf(" iteration %3d: ||r|| = %.14e, zeta = %.13e\n", it, rnorm, zeta);
  }
  double t = ts_gpu_timer_stop(&tm);
  int ok = cg_report(&cp, zeta, rnorm, t);
  cudaFree(g.rowstr);
  cudaFree(g.colidx);
  cudaFree(g.a);
  cudaFree(g.x);
  cudaFree(g.z);
  cudaFree(g.p);
  cudaFree(g.q);
  cudaFree(g.r);
  cudaFree(g.scal);
  cg_free(&A);
  return ok ? 0 : 1;
}
