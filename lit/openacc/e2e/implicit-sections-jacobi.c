// A 2-D Jacobi solver as the OpenACC training labs write it before data clauses are taught:
// `A` and `Anew` are pointers, the `parallel loop`s name no data clause. nvc infers
// copy(Anew[...]) / copyin(A[...]) from the loop bounds; so does ptxcc (the loop's access
// ranges, mapped at each launch): the answer must equal the serial solver's. The max reduction
// of `error` is named, so the residual comes back.
// REQUIRES: libptxrt
// RUN: %ptxcc -fopenacc -O2 %s -o %t -lm && %run %t | FileCheck %s
// RUN: %ptxcc -fopenacc -O2 -fptxcc-multi-device %s -o %t.md -lm && env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 %run %t.md | FileCheck %s
// CHECK: iterations {{[0-9]+}} error
// CHECK: PASS
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#define N 40
#define M 36

static double sweep(double *restrict A, double *restrict Anew, int n, int m) {
  double error = 0.0;
#pragma acc parallel loop reduction(max : error)
  for (int j = 1; j < n - 1; j++) {
#pragma acc loop reduction(max : error)
    for (int i = 1; i < m - 1; i++) {
      Anew[j * m + i] = 0.25 * (A[j * m + i + 1] + A[j * m + i - 1] + A[(j - 1) * m + i] +
                                A[(j + 1) * m + i]);
      error = fmax(error, fabs(Anew[j * m + i] - A[j * m + i]));
    }
  }
#pragma acc parallel loop
  for (int j = 1; j < n - 1; j++) {
#pragma acc loop
    for (int i = 1; i < m - 1; i++)
      A[j * m + i] = Anew[j * m + i];
  }
  return error;
}

static double sweep_serial(double *A, double *Anew, int n, int m) {
  double error = 0.0;
  for (int j = 1; j < n - 1; j++)
    for (int i = 1; i < m - 1; i++) {
      Anew[j * m + i] = 0.25 * (A[j * m + i + 1] + A[j * m + i - 1] + A[(j - 1) * m + i] +
                                A[(j + 1) * m + i]);
      error = fmax(error, fabs(Anew[j * m + i] - A[j * m + i]));
    }
  for (int j = 1; j < n - 1; j++)
    for (int i = 1; i < m - 1; i++)
      A[j * m + i] = Anew[j * m + i];
  return error;
}

static void init(double *A, double *Anew, int n, int m) {
  for (int j = 0; j < n; j++)
    for (int i = 0; i < m; i++) {
      A[j * m + i] = j == 0 ? 1.0 : 0.0;
      // The boundary of Anew is never written by the solver: a guard value that must survive.
      Anew[j * m + i] = j == 0 ? 1.0 : -7.0;
    }
}

int main(void) {
  double *A = malloc(sizeof(double) * N * M), *Anew = malloc(sizeof(double) * N * M);
  double *B = malloc(sizeof(double) * N * M), *Bnew = malloc(sizeof(double) * N * M);
  init(A, Anew, N, M);
  init(B, Bnew, N, M);
  double error = 1.0, serr = 1.0;
  int iter = 0;
  while (error > 1e-4 && iter < 300) {
    error = sweep(A, Anew, N, M);
    serr = sweep_serial(B, Bnew, N, M);
    iter++;
  }
  printf("iterations %d error %g\n", iter, error);
  int bad = fabs(error - serr) > 1e-12 * fmax(1.0, serr);
  for (int k = 0; k < N * M; k++)
    if (fabs(A[k] - B[k]) > 1e-12 || fabs(Anew[k] - Bnew[k]) > 1e-12) {
      if (bad < 5)
        printf("A[%d] = %g / %g, Anew = %g / %g\n", k, A[k], B[k], Anew[k], Bnew[k]);
      bad++;
    }
  printf("%s\n", bad || iter < 2 ? "FAIL" : "PASS");
  return bad != 0;
}
