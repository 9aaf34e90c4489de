// Himeno's Jacobi step with its coefficient array in the data-layout paper's form
// a[I][J][K][4] (four coefficients per point, as the original keeps them), run three ways with
// the same kernel source: without trans, with the paper's trans a[I][J][K][4] -> a[I][J][4][K]
// ([1,2,4,3]) around the data region, and with the coefficients described flat (float *) as
// 4-D. gosa and p are compared with the serial computation (the device fuses multiply-adds:
// a relative tolerance).
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t | FileCheck %s
// CHECK: original: ok
// CHECK: trans: ok
// CHECK: flat trans: ok
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define I 17
#define J 17
#define K 33
#define ITERS 4

static float a[I][J][K][4], p[I][J][K], wrk[I][J][K], pref[I][J][K], pser[I][J][K];

static void init(void) {
  for (int i = 0; i < I; i++)
    for (int j = 0; j < J; j++)
      for (int k = 0; k < K; k++) {
        a[i][j][k][0] = 1.0f + 0.01f * k;
        a[i][j][k][1] = 1.0f - 0.01f * j;
        a[i][j][k][2] = 1.0f + 0.001f * i;
        a[i][j][k][3] = 1.0f / 6.0f;
        p[i][j][k] = pref[i][j][k] = (float)(i * i) / ((I - 1) * (I - 1));
      }
}

#define STEP(A, P)                                                                                               \
  (A(i, j, k, 0) * P[i + 1][j][k] + A(i, j, k, 1) * P[i][j + 1][k] + A(i, j, k, 2) * P[i][j][k + 1] +           \
   P[i - 1][j][k] + P[i][j - 1][k] + P[i][j][k - 1])

#define A4(i, j, k, c) a[i][j][k][c]

static double serial(void) {
  double gosa = 0;
  for (int n = 0; n < ITERS; n++) {
    gosa = 0;
    for (int i = 1; i < I - 1; i++)
      for (int j = 1; j < J - 1; j++)
        for (int k = 1; k < K - 1; k++) {
          float ss = STEP(A4, pref) * a[i][j][k][3] - pref[i][j][k];
          gosa += ss * ss;
          wrk[i][j][k] = pref[i][j][k] + 0.8f * ss;
        }
    for (int i = 1; i < I - 1; i++)
      for (int j = 1; j < J - 1; j++)
        for (int k = 1; k < K - 1; k++)
          pref[i][j][k] = wrk[i][j][k];
  }
  return gosa;
}

static double device(void) {
  double gosa = 0;
  for (int n = 0; n < ITERS; n++) {
    gosa = 0;
#pragma omp target teams distribute parallel for collapse(3) reduction(+ : gosa)
    for (int i = 1; i < I - 1; i++)
      for (int j = 1; j < J - 1; j++)
        for (int k = 1; k < K - 1; k++) {
          float ss = STEP(A4, p) * a[i][j][k][3] - p[i][j][k];
          gosa += ss * ss;
          wrk[i][j][k] = p[i][j][k] + 0.8f * ss;
        }
#pragma omp target teams distribute parallel for collapse(3)
    for (int i = 1; i < I - 1; i++)
      for (int j = 1; j < J - 1; j++)
        for (int k = 1; k < K - 1; k++)
          p[i][j][k] = wrk[i][j][k];
  }
  return gosa;
}

static int same(double gosa, double ref) {
  int bad = fabs(gosa - ref) > 1e-4 * fabs(ref);
  for (int i = 0; i < I; i++)
    for (int j = 0; j < J; j++)
      for (int k = 0; k < K; k++)
        bad += fabsf(p[i][j][k] - pser[i][j][k]) > 1e-5f;
  return !bad;
}

int main(void) {
  init();
  double ref = serial();
  for (int i = 0; i < I; i++)
    for (int j = 0; j < J; j++)
      for (int k = 0; k < K; k++)
        pser[i][j][k] = pref[i][j][k];
  double g;
#pragma omp target data map(to : a) map(tofrom : p) map(alloc : wrk)
  g = device();
  printf("original: %s\n", same(g, ref) ? "ok" : "WRONG");

  init();
#pragma ptxcc trans transpose(a[0:I][0:J][0:K][0:4], [1,2,4,3])
#pragma omp target data map(to : a) map(tofrom : p) map(alloc : wrk)
  {
    g = 0;
    for (int n = 0; n < ITERS; n++) {
      g = 0;
#pragma omp target teams distribute parallel for collapse(3) reduction(+ : g)
      for (int i = 1; i < I - 1; i++)
        for (int j = 1; j < J - 1; j++)
          for (int k = 1; k < K - 1; k++) {
            float ss = STEP(A4, p) * a[i][j][k][3] - p[i][j][k];
            g += ss * ss;
            wrk[i][j][k] = p[i][j][k] + 0.8f * ss;
          }
#pragma omp target teams distribute parallel for collapse(3)
      for (int i = 1; i < I - 1; i++)
        for (int j = 1; j < J - 1; j++)
          for (int k = 1; k < K - 1; k++)
            p[i][j][k] = wrk[i][j][k];
    }
  }
  printf("trans: %s\n", same(g, ref) ? "ok" : "WRONG");

  init();
  float *af = &a[0][0][0][0];
#define AF(i, j, k, c) af[(((i) * J + (j)) * K + (k)) * 4 + (c)]
#pragma ptxcc trans transpose(af[0:I][0:J][0:K][0:4], [1,2,4,3])
#pragma omp target data map(to : af[0:I * J * K * 4]) map(tofrom : p) map(alloc : wrk)
  {
    for (int n = 0; n < ITERS; n++) {
      g = 0;
#pragma omp target teams distribute parallel for collapse(3) reduction(+ : g)
      for (int i = 1; i < I - 1; i++)
        for (int j = 1; j < J - 1; j++)
          for (int k = 1; k < K - 1; k++) {
            float ss = STEP(AF, p) * AF(i, j, k, 3) - p[i][j][k];
            g += ss * ss;
            wrk[i][j][k] = p[i][j][k] + 0.8f * ss;
          }
#pragma omp target teams distribute parallel for collapse(3)
      for (int i = 1; i < I - 1; i++)
        for (int j = 1; j < J - 1; j++)
          for (int k = 1; k < K - 1; k++)
            p[i][j][k] = wrk[i][j][k];
    }
  }
  printf("flat trans: %s\n", same(g, ref) ? "ok" : "WRONG");
  return 0;
}
