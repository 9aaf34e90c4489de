/* MPI Jacobi, OpenMP: each rank's block stays on its device for all the sweeps (target data); the halo
 * rows move by `target update from` of the two edge rows, MPI_Sendrecv, and `target update to` of the two
 * halo rows. The device: libptxrt's default, which for a process an MPI launcher started is its local
 * rank modulo the device count (device=shared sets it with omp_set_default_device instead). */
#define TS_VARIANT "omp"
#include "mpi_jacobi.h"
#include <omp.h>

/* One sweep on the default device: dst = mean of src's four neighbours on the owned rows; returns the sum
 * of the squared changes. */
static double mj_sweep(const double *restrict src, double *restrict dst, long rows, long n) {
  long m = n + 2, size = (rows + 2) * m;
  double res = 0;
#pragma omp target teams distribute parallel for collapse(2) map(to : src[0:size]) map(tofrom : dst[0:size]) \
    reduction(+ : res)
  for (long i = 1; i <= rows; i++)
    for (long j = 1; j <= n; j++) {
      double x = 0.25 * (src[MJ_IDX(i - 1, j, m)] + src[MJ_IDX(i + 1, j, m)] + src[MJ_IDX(i, j - 1, m)] +
                         src[MJ_IDX(i, j + 1, m)]);
      double d = x - src[MJ_IDX(i, j, m)];
      res += d * d;
      dst[MJ_IDX(i, j, m)] = x;
    }
  return res;
}

/* The halo exchange of u, whose block is on the device: only the edge rows and halo rows move. */
static void mj_exchange(const mj_params *p, double *u) {
  long m = p->n + 2, r = p->rows;
  if (p->up != MPI_PROC_NULL) {
#pragma omp target update from(u[m:m])
  }
  if (p->down != MPI_PROC_NULL) {
#pragma omp target update from(u[r * m:m])
  }
  mj_exchange_host(p, u);
  if (p->up != MPI_PROC_NULL) {
#pragma omp target update to(u[0:m])
  }
  if (p->down != MPI_PROC_NULL) {
#pragma omp target update to(u[(r + 1) * m:m])
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mj_params p = mj_setup(argc, argv, MJ_DEVICE_RUNTIME);
  int devices = omp_get_num_devices();
  if (p.device == MJ_DEVICE_SHARED && devices > 0)
    omp_set_default_device(p.local_rank % devices);
  else if (p.device == MJ_DEVICE_RANK)
    omp_set_default_device(p.local_rank);
  int device = omp_get_default_device();
  long m = p.n + 2, size = (p.rows + 2) * m;
  double *u = (double *)ts_alloc(size * sizeof(double)), *v = (double *)ts_alloc(size * sizeof(double));
  mj_init_local(&p, u, v);
  double residual = 0;
#pragma omp target data map(to : u[0:size], v[0:size])
  {
    double *src = u, *dst = v;
    for (int it = 0; it < p.iters; it++) {
      mj_exchange(&p, src);
      double mine = mj_sweep(src, dst, p.rows, p.n);
      MPI_Allreduce(&mine, &residual, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      double *t = src;
      src = dst;
      dst = t;
    }
#pragma omp target update from(src[m:p.rows * m])
    if (src != u)
      memcpy(u, v, size * sizeof(double));
  }
  int ok = mj_verify(&p, u, residual, device, devices);
  free(u);
  free(v);
  MPI_Finalize();
  return ok ? 0 : 1;
}
