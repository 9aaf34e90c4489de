// NPB CG's sparse matrix-vector product and dot product in kernels regions: the dependence
// test proves the row loop parallel (sum and k private), and the dot product a reduction.
// Rows are compared within a relative 1e-13: on a GPU, NVPTX contracts sum += a*p into an fma,
// which the host's serial loop does not (an exact comparison failed 368 rows under ptxsim).
// REQUIRES: libptxrt
// RUN: %ptxcc -fopenacc -fptxcc-info %s -o %t 2>%t.info && %run %t | FileCheck %s
// RUN: FileCheck --check-prefix=INFO %s < %t.info
// CHECK: PASS
// INFO: kernels-cg.c:31: loop parallelized: gang(blockIdx.x) vector(threadIdx.x) (independent iterations proven)
// INFO: kernels-cg.c:31: made private to each thread, the last iteration's value kept: k, sum
// INFO: kernels-cg.c:37: reduction(+: rho) recognised
#include <stdio.h>
#include <stdlib.h>
#define NR 2000
int main(void) {
  int *rowstr = malloc((NR + 1) * sizeof(int)), *colidx = malloc(NR * 8 * sizeof(int));
  double *a = malloc(NR * 8 * sizeof(double)), *p = malloc(NR * sizeof(double)), *q = malloc(NR * sizeof(double));
  double *r = malloc(NR * sizeof(double));
  int nnz = 0;
  for (int j = 0; j < NR; j++) {
    rowstr[j] = nnz;
    for (int t = 0; t < 1 + j % 8; t++) { colidx[nnz] = (j * 7 + t * 13) % NR; a[nnz] = 1.0 / (1 + t + j % 5); nnz++; }
    p[j] = j % 11;
  }
  rowstr[NR] = nnz;
  int j, k;
  double sum, rho = 0;
  #pragma acc data copyin(rowstr[0:NR+1], colidx[0:nnz], a[0:nnz], p[0:NR]) copyout(q[0:NR])
  {
    #pragma acc kernels
    for (j = 0; j < NR; j++) {
      sum = 0.0;
      for (k = rowstr[j]; k < rowstr[j + 1]; k++) sum += a[k] * p[colidx[k]];
      q[j] = sum;
    }
    #pragma acc kernels
    for (j = 0; j < NR; j++) rho += q[j] * p[j];
  }
  double rrho = 0; int bad = 0;
  for (int jj = 0; jj < NR; jj++) {
    double s = 0;
    for (int kk = rowstr[jj]; kk < rowstr[jj + 1]; kk++) s += a[kk] * p[colidx[kk]];
    r[jj] = s;
    if (r[jj] != q[jj] && (r[jj] - q[jj]) * (r[jj] - q[jj]) > 1e-26 * r[jj] * r[jj]) bad++;
    rrho += r[jj] * p[jj];
  }
  if (rho != rrho && (rho - rrho) * (rho - rrho) > 1e-12 * rrho * rrho) bad++;
  printf("%s %d %f %f\n", bad ? "FAIL" : "PASS", bad, rho, rrho);
  return bad != 0;
}
