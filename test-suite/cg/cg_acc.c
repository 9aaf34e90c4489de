/* NPB CG, OpenACC: the matrix and vectors stay on the device (acc data); every vector loop of CG is a
 * `parallel loop`, the dot products with reduction(+) (the matrix-vector product fused with the dot
 * product that follows it), one gang/vector iteration per row, the row's sum sequential. */
#define TS_VARIANT "acc"
#include "cg.h"

/* 25 CG iterations on A z = x from z = 0; returns ||x - A z||. */
static double cg_conj_grad(long n, const int *restrict rowstr, const int *restrict colidx, const double *restrict a,
                           const double *restrict x, double *restrict z, double *restrict p, double *restrict q,
                           double *restrict r) {
  double rho = 0.0;
#pragma acc parallel loop reduction(+ : rho) present(x[0:n], z[0:n], p[0:n], q[0:n], r[0:n])
  for (long j = 0; j < n; j++) {
    q[j] = 0.0;
    z[j] = 0.0;
    r[j] = x[j];
    p[j] = r[j];
    rho += r[j] * r[j];
  }
  for (int cgit = 0; cgit < CG_ITMAX; cgit++) {
    double d = 0.0;
#pragma acc parallel loop reduction(+ : d) present(x[0:n], z[0:n], p[0:n], q[0:n], r[0:n]) \
    present(rowstr[0:n + 1], colidx[0:rowstr[n]], a[0:rowstr[n]])
    for (long j = 0; j < n; j++) { /* q = A p, d = p . q */
      double s = 0.0;
#pragma acc loop seq
      for (int k = rowstr[j]; k < rowstr[j + 1]; k++)
        s += a[k] * p[colidx[k]];
      q[j] = s;
      d += p[j] * s;
    }
    double alpha = rho / d, rho0 = rho;
    rho = 0.0;
#pragma acc parallel loop reduction(+ : rho) present(x[0:n], z[0:n], p[0:n], q[0:n], r[0:n])
    for (long j = 0; j < n; j++) { /* z += alpha p, r -= alpha q, rho = r . r */
      z[j] += alpha * p[j];
      r[j] -= alpha * q[j];
      rho += r[j] * r[j];
    }
    double beta = rho / rho0;
#pragma acc parallel loop present(x[0:n], z[0:n], p[0:n], r[0:n])
    for (long j = 0; j < n; j++) /* p = r + beta p */
      p[j] = r[j] + beta * p[j];
  }
  double sum = 0.0;
#pragma acc parallel loop reduction(+ : sum) present(x[0:n], z[0:n], p[0:n], q[0:n], r[0:n]) \
    present(rowstr[0:n + 1], colidx[0:rowstr[n]], a[0:rowstr[n]])
  for (long j = 0; j < n; j++) { /* r = A z, sum = ||x - r||^2 */
    double s = 0.0;
#pragma acc loop seq
    for (int k = rowstr[j]; k < rowstr[j + 1]; k++)
      s += a[k] * z[colidx[k]];
    r[j] = s;
    sum += (x[j] - s) * (x[j] - s);
  }
  return sqrt(sum);
}

/* x = (1, ..., 1) on the device. */
static void cg_ones(long n, double *x) {
#pragma acc parallel loop present(x[0:n])
  for (long j = 0; j < n; j++)
    x[j] = 1.0;
}

/* One step of the power iteration: returns zeta; x becomes z / ||z||. */
static double cg_step(long n, const cg_matrix *A, double shift, double *x, double *z, double *p, double *q, double *r,
                      double *rnorm) {
  *rnorm = cg_conj_grad(n, A->rowstr, A->colidx, A->a, x, z, p, q, r);
  double t1 = 0.0, t2 = 0.0;
#pragma acc parallel loop reduction(+ : t1, t2) present(x[0:n], z[0:n], p[0:n], q[0:n], r[0:n])
  for (long j = 0; j < n; j++) {
    t1 += x[j] * z[j];
    t2 += z[j] * z[j];
  }
  t2 = 1.0 / sqrt(t2);
#pragma acc parallel loop present(x[0:n], z[0:n], p[0:n], r[0:n])
  for (long j = 0; j < n; j++)
    x[j] = t2 * z[j];
  return shift + 1.0 / t1;
}

int main(int argc, char **argv) {
  cg_params cp = cg_setup(argc, argv);
  cg_matrix A = cg_makea(&cp);
  long n = cp.na;
  double *x = (double *)ts_alloc(n * sizeof(double)), *z = (double *)ts_alloc(n * sizeof(double)),
         *p = (double *)ts_alloc(n * sizeof(double)), *q = (double *)ts_alloc(n * sizeof(double)),
         *r = (double *)ts_alloc(n * sizeof(double));
  double zeta = 0.0, rnorm = 0.0, t;
  long nnz = A.nnz;
  int *rowstr = A.rowstr, *colidx = A.colidx;
  double *a = A.a;
  for (long j = 0; j < n; j++)
    x[j] = 1.0;
#pragma acc data copyin(rowstr[0:n + 1], colidx[0:nnz], a[0:nnz], x[0:n]) \
    create(z[0:n], p[0:n], q[0:n], r[0:n])
  {
    cg_step(n, &A, cp.shift, x, z, p, q, r, &rnorm); /* untimed */
    cg_ones(n, x);
    double t0 = ts_now();
    for (int it = 1; it <= cp.niter; it++) {
      zeta = cg_step(n, &A, cp.shift, x, z, p, q, r, &rnorm);
      if (it == 1 || it == cp.niter)
        printf(" iteration %3d: ||r|| = %.14e, zeta = %.13e\n", it, rnorm, zeta);
    }
    t = ts_now() - t0;
  }
  int ok = cg_report(&cp, zeta, rnorm, t);
  cg_free(&A);
  free(x);
  free(z);
  free(p);
  free(q);
  free(r);
  return ok ? 0 : 1;
}
