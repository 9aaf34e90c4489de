/*
 * NPB CG, written from the NAS Parallel Benchmarks specification: estimate the smallest eigenvalue of a
 * large sparse symmetric positive-definite matrix by inverse power iteration, each step solving A z = x
 * with 25 iterations of unpreconditioned conjugate gradient:
 *     x = (1, ..., 1)
 *     repeat NITER times:  z = CG25(A, x);  zeta = SHIFT + 1 / (x . z);  x = z / ||z||
 * The matrix is the specification's: A = sum_i w_i v_i v_i^T + (RCOND - SHIFT) I over i = 1..NA, where
 * v_i is a sparse random vector with NONZER nonzeros at distinct random positions (values and positions
 * drawn with the NPB generator, seed 314159265, a = 5^13, one number discarded first) plus the element
 * v_i[i] = 0.5, and the weights w_i decrease geometrically from 1 to RCOND = 0.1. Classes:
 *     S: NA 1400, NONZER 7, NITER 15, SHIFT 10        W: NA 7000, NONZER 8, NITER 15, SHIFT 12
 *     A: NA 14000, NONZER 11, NITER 15, SHIFT 20      B: NA 75000, NONZER 13, NITER 75, SHIFT 60
 *     C: NA 150000, NONZER 15, NITER 75, SHIFT 110
 * Verification: zeta within 1e-10 (relative) of the specification's value. As NPB does, one untimed
 * step runs first and x is reset. Metric: Mop/s with the NPB operation count.
 */
#ifndef CG_H
#define CG_H
#include "../common/ts_common.h"
#include "../common/npb_random.h"

#define CG_RCOND 0.1
#define CG_ITMAX 25

typedef struct {
  char cls;
  long na, nonzer;
  int niter;
  double shift, zeta_ref;
} cg_params;

typedef struct {
  long n, nnz;
  int *rowstr; /* n + 1 */
  int *colidx; /* nnz, increasing within a row */
  double *a;   /* nnz */
} cg_matrix;

static cg_params cg_setup(int argc, char **argv) {
  static const long na[5] = {1400, 7000, 14000, 75000, 150000}, nonzer[5] = {7, 8, 11, 13, 15};
  static const int niter[5] = {15, 15, 15, 75, 75};
  static const double shift[5] = {10.0, 12.0, 20.0, 60.0, 110.0};
  static const double zeta[5] = {8.5971775078648, 10.362595087124, 17.130235054029, 22.712745482631,
                                 28.973605592845};
  cg_params p;
  p.cls = ts_class(argc, argv);
  int c = ts_class_index(p.cls);
  p.na = na[c];
  p.nonzer = nonzer[c];
  p.niter = niter[c];
  p.shift = shift[c];
  p.zeta_ref = zeta[c];
  char buf[96];
  snprintf(buf, sizeof buf, "NA=%ld, NONZER=%ld, NITER=%d, SHIFT=%g", p.na, p.nonzer, p.niter, p.shift);
  ts_banner("NPB CG", p.cls, buf);
  return p;
}

typedef struct {
  int col;
  int seq; /* order of generation within the row */
  double v;
} cg_entry;

static int cg_entry_cmp(const void *x, const void *y) {
  const cg_entry *a = (const cg_entry *)x, *b = (const cg_entry *)y;
  if (a->col != b->col)
    return a->col < b->col ? -1 : 1;
  return a->seq < b->seq ? -1 : (a->seq > b->seq);
}

/* Builds the specification's matrix in CSR form. */
static cg_matrix cg_makea(const cg_params *p) {
  long n = p->na, nz1 = p->nonzer + 1;
  double tran = 314159265.0, amult = 1220703125.0;
  npb_randlc(&tran, amult); /* the benchmark draws one number before the matrix */
  long nn1 = 1;
  while (nn1 < n)
    nn1 *= 2;
  /* the sparse vectors: positions (0-based) and values */
  int *vidx = (int *)ts_alloc(n * nz1 * sizeof(int)), *vlen = (int *)ts_alloc(n * sizeof(int));
  double *vval = (double *)ts_alloc(n * nz1 * sizeof(double));
  for (long i = 0; i < n; i++) {
    int *iv = vidx + i * nz1, m = 0;
    double *v = vval + i * nz1;
    while (m < p->nonzer) {
      double val = npb_randlc(&tran, amult);
      double loc = npb_randlc(&tran, amult);
      long pos = (long)((double)nn1 * loc); /* 0-based position; the specification's is this + 1 */
      if (pos >= n)
        continue;
      int seen = 0;
      for (int k = 0; k < m; k++)
        seen |= iv[k] == pos;
      if (seen)
        continue;
      iv[m] = (int)pos;
      v[m] = val;
      m++;
    }
    int found = 0;
    for (int k = 0; k < m; k++)
      if (iv[k] == i) {
        v[k] = 0.5;
        found = 1;
      }
    if (!found) {
      iv[m] = (int)i;
      v[m] = 0.5;
      m++;
    }
    vlen[i] = m;
  }
  /* row lengths with duplicates, then the entries of every row in generation order */
  long *start = (long *)ts_alloc((n + 1) * sizeof(long)), *fill = (long *)ts_alloc(n * sizeof(long));
  for (long j = 0; j <= n; j++)
    start[j] = 0;
  for (long i = 0; i < n; i++)
    for (int k = 0; k < vlen[i]; k++)
      start[vidx[i * nz1 + k] + 1] += vlen[i];
  for (long j = 0; j < n; j++)
    start[j + 1] += start[j];
  long total = start[n];
  cg_entry *e = (cg_entry *)ts_alloc(total * sizeof(cg_entry));
  for (long j = 0; j < n; j++)
    fill[j] = start[j];
  double size = 1.0, ratio = pow(CG_RCOND, 1.0 / (double)n);
  for (long i = 0; i < n; i++) {
    const int *iv = vidx + i * nz1;
    const double *v = vval + i * nz1;
    for (int ka = 0; ka < vlen[i]; ka++) {
      long j = iv[ka];
      double scale = size * v[ka];
      for (int kb = 0; kb < vlen[i]; kb++) {
        long jcol = iv[kb];
        double va = v[kb] * scale;
        if (jcol == j && j == i)
          va = va + CG_RCOND - p->shift;
        cg_entry *x = &e[fill[j]];
        x->col = (int)jcol;
        x->seq = (int)(fill[j] - start[j]);
        x->v = va;
        fill[j]++;
      }
    }
    size *= ratio;
  }
  /* sort every row by column (then generation order) and add up the duplicates in that order */
  cg_matrix A;
  A.n = n;
  A.rowstr = (int *)ts_alloc((n + 1) * sizeof(int));
  A.colidx = (int *)ts_alloc(total * sizeof(int));
  A.a = (double *)ts_alloc(total * sizeof(double));
  long nnz = 0;
  for (long j = 0; j < n; j++) {
    qsort(e + start[j], (size_t)(start[j + 1] - start[j]), sizeof(cg_entry), cg_entry_cmp);
    A.rowstr[j] = (int)nnz;
    for (long k = start[j]; k < start[j + 1]; k++) {
      if (k > start[j] && e[k].col == e[k - 1].col) {
        A.a[nnz - 1] = A.a[nnz - 1] + e[k].v;
      } else {
        A.colidx[nnz] = e[k].col;
        A.a[nnz] = 0.0 + e[k].v;
        nnz++;
      }
    }
  }
  A.rowstr[n] = (int)nnz;
  A.nnz = nnz;
  free(vidx);
  free(vlen);
  free(vval);
  free(start);
  free(fill);
  free(e);
  printf(" matrix: %ld rows, %ld nonzeros\n", n, nnz);
  return A;
}

static void cg_free(cg_matrix *A) {
  free(A->rowstr);
  free(A->colidx);
  free(A->a);
}

static int cg_report(const cg_params *p, double zeta, double rnorm, double seconds) {
  double err = fabs(zeta - p->zeta_ref) / p->zeta_ref;
  int ok = err <= 1e-10;
  printf(" zeta = %.13e (reference %.13e, relative error %.2e), last residual %.3e\n", zeta, p->zeta_ref, err, rnorm);
  double nz = (double)(p->nonzer * (p->nonzer + 1));
  double ops = 2.0 * p->niter * (double)p->na * (3.0 + nz + 25.0 * (5.0 + nz) + 3.0);
  double t = seconds / p->niter;
  ts_result r = {"cg", p->cls, p->niter, p->niter + 1, t, "Mop/s", 1e-6 * ops / seconds, 0, ops / p->niter, 0, ok,
                 1e-10, zeta, "cg", NULL};
  ts_print_result(&r);
  ts_print_verification(ok);
  return ok;
}

#endif
