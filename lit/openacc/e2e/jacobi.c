// A Jacobi solver as people write it for nvc: a data region around a convergence loop, a
// collapsed parallel loop with a max reduction, a kernels copy-back, present() on pointers.
// REQUIRES: libptxrt
// RUN: %ptxcc -fopenacc -O2 %s -o %t -lm && %run %t | FileCheck %s
// CHECK: PASS
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#define NX 130
#define NY 110
int main(void) {
  double (*A)[NY] = malloc(sizeof(double[NX][NY]));
  double (*Anew)[NY] = malloc(sizeof(double[NX][NY]));
  double (*R)[NY] = malloc(sizeof(double[NX][NY]));
  double (*Rn)[NY] = malloc(sizeof(double[NX][NY]));
  for (int i = 0; i < NX; i++) for (int j = 0; j < NY; j++) { A[i][j] = R[i][j] = (i == 0) ? 1.0 : 0.0; Anew[i][j] = Rn[i][j] = A[i][j]; }
  double err = 1.0, rerr = 1.0;
  int iter = 0;
  #pragma acc data copy(A[0:NX][0:NY]) create(Anew[0:NX][0:NY])
  while (err > 1e-3 && iter < 200) {
    err = 0.0;
    #pragma acc parallel loop collapse(2) reduction(max:err) present(A, Anew)
    for (int i = 1; i < NX - 1; i++)
      for (int j = 1; j < NY - 1; j++) {
        Anew[i][j] = 0.25 * (A[i][j+1] + A[i][j-1] + A[i-1][j] + A[i+1][j]);
        err = fmax(err, fabs(Anew[i][j] - A[i][j]));
      }
    #pragma acc kernels present(A, Anew)
    for (int i = 1; i < NX - 1; i++)
      for (int j = 1; j < NY - 1; j++) A[i][j] = Anew[i][j];
    iter++;
  }
  int riter = 0;
  while (rerr > 1e-3 && riter < 200) {
    rerr = 0.0;
    for (int i = 1; i < NX - 1; i++)
      for (int j = 1; j < NY - 1; j++) {
        Rn[i][j] = 0.25 * (R[i][j+1] + R[i][j-1] + R[i-1][j] + R[i+1][j]);
        rerr = fmax(rerr, fabs(Rn[i][j] - R[i][j]));
      }
    for (int i = 1; i < NX - 1; i++) for (int j = 1; j < NY - 1; j++) R[i][j] = Rn[i][j];
    riter++;
  }
  int bad = (iter != riter) || fabs(err - rerr) > 1e-12;
  for (int i = 0; i < NX; i++) for (int j = 0; j < NY; j++) if (fabs(A[i][j] - R[i][j]) > 1e-12) bad++;
  printf("%s iter %d %d err %g %g\n", bad ? "FAIL" : "PASS", iter, riter, err, rerr);
  return bad != 0;
}
