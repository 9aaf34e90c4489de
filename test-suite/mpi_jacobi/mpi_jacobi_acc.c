/* MPI Jacobi, OpenACC: each rank's block stays on its device for all the sweeps (acc data); the halo rows
 * move by `update self` of the two edge rows, MPI_Sendrecv, and `update device` of the two halo rows.
 * The device: this rank's place in MPI_COMM_TYPE_SHARED, as OpenACC users write it (mpi_jacobi.h). */
#define TS_VARIANT "acc"
#include "mpi_jacobi.h"
#include <openacc.h>

/* One sweep on the device: dst = mean of src's four neighbours on the owned rows; returns the sum of the
 * squared changes. */
static double mj_sweep(const double *restrict src, double *restrict dst, long rows, long n) {
  long m = n + 2, size = (rows + 2) * m;
  double res = 0;
#pragma acc parallel loop collapse(2) present(src[0:size], dst[0:size]) reduction(+ : res)
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
#pragma acc update self(u[m:m])
  }
  if (p->down != MPI_PROC_NULL) {
#pragma acc update self(u[r * m:m])
  }
  mj_exchange_host(p, u);
  if (p->up != MPI_PROC_NULL) {
#pragma acc update device(u[0:m])
  }
  if (p->down != MPI_PROC_NULL) {
#pragma acc update device(u[(r + 1) * m:m])
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mj_params p = mj_setup(argc, argv, MJ_DEVICE_SHARED);
  int devices = acc_get_num_devices(acc_device_nvidia);
  if (p.device == MJ_DEVICE_SHARED && devices > 0)
    acc_set_device_num(p.local_rank % devices, acc_device_nvidia);
  else if (p.device == MJ_DEVICE_RANK)
    acc_set_device_num(p.local_rank, acc_device_nvidia);
  int device = acc_get_device_num(acc_device_nvidia);
  long m = p.n + 2, size = (p.rows + 2) * m;
  double *u = (double *)ts_alloc(size * sizeof(double)), *v = (double *)ts_alloc(size * sizeof(double));
  mj_init_local(&p, u, v);
  double residual = 0;
#pragma acc data copyin(u[0:size], v[0:size])
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
#pragma acc update self(src[m:p.rows * m])
    if (src != u)
      memcpy(u, v, size * sizeof(double));
  }
  int ok = mj_verify(&p, u, residual, device, devices);
  free(u);
  free(v);
  MPI_Finalize();
  return ok ? 0 : 1;
}
