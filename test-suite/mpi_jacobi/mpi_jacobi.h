/*
 * 5-point Jacobi on an (N+2) x (N+2) grid, split over MPI ranks by rows, one device per rank — shared by
 * the OpenACC (mpi_jacobi_acc.c) and OpenMP (mpi_jacobi_omp.c) versions.
 *
 * Rank r owns a contiguous block of interior rows [lo, lo + rows) (the N rows dealt as evenly as they go)
 * and holds them between two halo rows: the last row of rank r-1 and the first of rank r+1 (or the fixed
 * boundary rows 0 and N+1 at the ends). Every sweep
 *   1. exchanges the halos of the array it reads: the two edge rows come back from the device (update
 *      self / target update from), travel by MPI_Sendrecv, and the received rows go to the device
 *      (update device / target update to) — 2 rows each way per interior neighbour, nothing else moves;
 *   2. sets each owned point to the mean of its four neighbours on the device, with the sum of squared
 *      changes reduced on the device;
 *   3. adds the ranks' sums with MPI_Allreduce: the residual, known to every rank.
 * At the end every rank's rows are gathered on rank 0, which repeats the same sweeps serially on the
 * whole grid and compares: the grid bit for bit (each update is 0.25 * (a + b + c + d) everywhere: nothing
 * to contract), the residual to 1e-10 (sums in another order, and FMA on the GPU). Exit status 1 on any
 * difference, on every rank.
 *
 * Arguments (key=value): n=N interior points per side (default 96), iters=SWEEPS (default 20),
 * device=shared|rank|runtime: how a rank picks its device — `shared` (the OpenACC version's default): its
 * rank in MPI_COMM_TYPE_SHARED modulo the device count, set with acc_set_device_num / omp_set_default_device;
 * `rank`: that local rank without the modulo (a rank without a device of its number stops with the
 * runtime's error); `runtime` (the OpenMP version's default): no call, libptxrt's default device (the
 * launcher's local rank modulo the device count, unless OMP_DEFAULT_DEVICE / ACC_DEVICE_NUM say otherwise).
 */
#ifndef MPI_JACOBI_H
#define MPI_JACOBI_H
#include "../common/ts_common.h"
#include <mpi.h>

#define MJ_IDX(i, j, m) ((i) * (m) + (j))

typedef enum { MJ_DEVICE_SHARED, MJ_DEVICE_RANK, MJ_DEVICE_RUNTIME } mj_device_choice;

typedef struct {
  long n;     /* interior points per side */
  int iters;  /* sweeps */
  mj_device_choice device;
  int rank, size;       /* in MPI_COMM_WORLD */
  int local_rank;       /* in this node's MPI_COMM_TYPE_SHARED communicator */
  long lo, rows;        /* owned interior rows: global rows lo .. lo + rows - 1 */
  int up, down;         /* neighbour ranks (MPI_PROC_NULL at the ends) */
} mj_params;

static void mj_fail(const mj_params *p, const char *msg) {
  if (p->rank == 0)
    fprintf(stderr, "mpi_jacobi: %s\n", msg);
  MPI_Abort(MPI_COMM_WORLD, 2);
}

static mj_params mj_setup(int argc, char **argv, mj_device_choice default_device) {
  mj_params p;
  MPI_Comm_rank(MPI_COMM_WORLD, &p.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p.size);
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, p.rank, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &p.local_rank);
  MPI_Comm_free(&node);
  p.n = ts_opt_long(argc, argv, "n", 96);
  p.iters = (int)ts_opt_long(argc, argv, "iters", 20);
  p.device = default_device;
  for (int i = 1; i < argc; i++) {
    if (strncmp(argv[i], "device=", 7) != 0)
      continue;
    const char *v = argv[i] + 7;
    if (strcmp(v, "shared") == 0)
      p.device = MJ_DEVICE_SHARED;
    else if (strcmp(v, "rank") == 0)
      p.device = MJ_DEVICE_RANK;
    else if (strcmp(v, "runtime") == 0)
      p.device = MJ_DEVICE_RUNTIME;
    else
      mj_fail(&p, "device= takes shared, rank or runtime");
  }
  if (p.n < p.size || p.iters < 1)
    mj_fail(&p, "need n >= the number of ranks (every rank owns a row) and iters >= 1");
  long base = p.n / p.size, extra = p.n % p.size;
  p.rows = base + (p.rank < extra);
  p.lo = 1 + p.rank * base + (p.rank < extra ? p.rank : extra);
  p.up = p.rank > 0 ? p.rank - 1 : MPI_PROC_NULL;
  p.down = p.rank < p.size - 1 ? p.rank + 1 : MPI_PROC_NULL;
  if (p.rank == 0) {
    printf(" MPI Jacobi 5-point 2-D (%s): %ld x %ld interior points, %d sweeps, %d ranks\n", TS_VARIANT, p.n, p.n,
           p.iters, p.size);
    fflush(stdout);
  }
  return p;
}

/* The fixed boundary (as jacobi2d): 1 on the top edge, a ramp down the left edge, 0 elsewhere and inside. */
static double mj_initial(long i, long j, long m) {
  if (i == 0)
    return 1.0;
  if (j == 0)
    return 1.0 - (double)i / (double)(m - 1);
  return 0.0;
}

/* A rank's block with its halo rows: local row k is global row lo - 1 + k, k = 0 .. rows + 1. */
static void mj_init_local(const mj_params *p, double *u, double *v) {
  long m = p->n + 2;
  for (long k = 0; k < p->rows + 2; k++)
    for (long j = 0; j < m; j++)
      u[MJ_IDX(k, j, m)] = v[MJ_IDX(k, j, m)] = mj_initial(p->lo - 1 + k, j, m);
}

/* Host side of a halo exchange: the device has already sent the edge rows to u (rows 1 and rows);
 * afterwards u's halo rows 0 and rows + 1 hold the neighbours' edges. */
static void mj_exchange_host(const mj_params *p, double *u) {
  long m = p->n + 2, r = p->rows;
  /* my first row up, the lower neighbour's first row into my bottom halo */
  MPI_Sendrecv(&u[MJ_IDX(1, 0, m)], (int)m, MPI_DOUBLE, p->up, 0, &u[MJ_IDX(r + 1, 0, m)], (int)m, MPI_DOUBLE,
               p->down, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  /* my last row down, the upper neighbour's last row into my top halo */
  MPI_Sendrecv(&u[MJ_IDX(r, 0, m)], (int)m, MPI_DOUBLE, p->down, 1, &u[MJ_IDX(0, 0, m)], (int)m, MPI_DOUBLE, p->up,
               1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

/* Rank 0: the same sweeps on the whole grid, serially; returns the last sweep's residual. */
static double mj_serial(const mj_params *p, double *u, double *v) {
  long n = p->n, m = n + 2;
  for (long i = 0; i < m; i++)
    for (long j = 0; j < m; j++)
      u[MJ_IDX(i, j, m)] = v[MJ_IDX(i, j, m)] = mj_initial(i, j, m);
  double res = 0;
  for (int it = 0; it < p->iters; it++) {
    res = 0;
    for (long i = 1; i <= n; i++)
      for (long j = 1; j <= n; j++) {
        double x = 0.25 * (u[MJ_IDX(i - 1, j, m)] + u[MJ_IDX(i + 1, j, m)] + u[MJ_IDX(i, j - 1, m)] +
                           u[MJ_IDX(i, j + 1, m)]);
        double d = x - u[MJ_IDX(i, j, m)];
        res += d * d;
        v[MJ_IDX(i, j, m)] = x;
      }
    double *t = u;
    u = v;
    v = t;
  }
  return res;
}

/* Gathers every rank's rows on rank 0, compares them and the residual with the serial run there, prints the
 * verdict and returns it on every rank. `u` is the rank's block after the sweeps (on the host). */
static int mj_verify(const mj_params *p, const double *u, double residual, int device, int devices) {
  long n = p->n, m = n + 2;
  int *counts = NULL, *displs = NULL, *devs = NULL;
  double *grid = NULL;
  if (p->rank == 0) {
    counts = (int *)ts_alloc(p->size * sizeof(int));
    displs = (int *)ts_alloc(p->size * sizeof(int));
    devs = (int *)ts_alloc(2 * p->size * sizeof(int));
    grid = (double *)ts_alloc((size_t)(m * m) * sizeof(double));
  }
  int mine[2] = {device, devices};
  MPI_Gather(mine, 2, MPI_INT, devs, 2, MPI_INT, 0, MPI_COMM_WORLD);
  int count = (int)(p->rows * m), displ = (int)(p->lo * m);
  MPI_Gather(&count, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Gather(&displ, 1, MPI_INT, displs, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Gatherv(&u[MJ_IDX(1, 0, m)], count, MPI_DOUBLE, grid, counts, displs, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  int ok = 1;
  if (p->rank == 0) {
    for (int r = 0; r < p->size; r++)
      printf(" rank %d: device %d of %d%s\n", r, devs[2 * r], devs[2 * r + 1],
             devs[2 * r] == devs[2 * r + 1] ? " (the host: OpenMP's initial device)" : "");
    double *su = (double *)ts_alloc((size_t)(m * m) * sizeof(double));
    double *sv = (double *)ts_alloc((size_t)(m * m) * sizeof(double));
    double sres = mj_serial(p, su, sv);
    const double *s = (p->iters % 2) ? sv : su; /* where the serial sweeps ended */
    long bad = 0;
    double maxdiff = 0;
    for (long i = 1; i <= n; i++)
      for (long j = 0; j < m; j++) {
        double d = fabs(grid[MJ_IDX(i, j, m)] - s[MJ_IDX(i, j, m)]);
        if (d != 0.0 || grid[MJ_IDX(i, j, m)] != grid[MJ_IDX(i, j, m)]) {
          if (bad < 3)
            fprintf(stderr, "mpi_jacobi: point (%ld, %ld): %.17g, serial %.17g\n", i, j, grid[MJ_IDX(i, j, m)],
                    s[MJ_IDX(i, j, m)]);
          bad++;
        }
        if (d > maxdiff)
          maxdiff = d;
      }
    int res_ok = ts_close(residual, sres, 1e-10);
    ok = bad == 0 && res_ok;
    printf(" residual %.12e, serial %.12e%s\n", residual, sres, res_ok ? "" : " (differs)");
    printf(" grid: %ld of %ld points differ from the serial run (max difference %g)\n", bad, n * m, maxdiff);
    ts_print_verification(ok);
    free(su);
    free(sv);
    free(grid);
    free(counts);
    free(displs);
    free(devs);
  }
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return ok;
}

#endif
