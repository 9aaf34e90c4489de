// A 2-D 5-point Jacobi stencil iterated 50 times inside one target data region (the grids never leave
// the device between sweeps), compared bit for bit with the same sweeps on the host.
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t | FileCheck %s
// CHECK: PASS
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define M 130 /* 128 x 128 interior */

static void sweep_host(const double *src, double *dst) {
  for (int i = 1; i < M - 1; i++)
    for (int j = 1; j < M - 1; j++)
      dst[i * M + j] = 0.25 * (src[(i - 1) * M + j] + src[(i + 1) * M + j] + src[i * M + j - 1] + src[i * M + j + 1]);
}

int main(void) {
  double *u = malloc(M * M * sizeof(double)), *v = malloc(M * M * sizeof(double));
  double *hu = malloc(M * M * sizeof(double)), *hv = malloc(M * M * sizeof(double));
  for (int i = 0; i < M; i++)
    for (int j = 0; j < M; j++)
      u[i * M + j] = v[i * M + j] = (i == 0) ? 1.0 : (j == 0 ? 0.5 : 0.0);
  memcpy(hu, u, M * M * sizeof(double));
  memcpy(hv, v, M * M * sizeof(double));
  const int iters = 50;
#pragma omp target data map(tofrom : u[0:M * M]) map(to : v[0:M * M])
  for (int it = 0; it < iters; it++) {
    double *src = (it % 2) ? v : u, *dst = (it % 2) ? u : v;
#pragma omp target teams distribute parallel for collapse(2)
    for (int i = 1; i < M - 1; i++)
      for (int j = 1; j < M - 1; j++)
        dst[i * M + j] = 0.25 * (src[(i - 1) * M + j] + src[(i + 1) * M + j] + src[i * M + j - 1] + src[i * M + j + 1]);
  }
  for (int it = 0; it < iters; it++)
    sweep_host((it % 2) ? hv : hu, (it % 2) ? hu : hv);
  long bad = 0;
  double sum = 0;
  for (int k = 0; k < M * M; k++) {
    bad += u[k] != hu[k];
    sum += u[k];
  }
  printf("sum %.15g, %ld points differ\n", sum, bad);
  printf("%s\n", bad == 0 ? "PASS" : "FAIL");
  return bad != 0;
}
