// A flat array indexed by hand (double *a, a[((i*J + j)*K + k)*4 + c]) described as 4-D, the
// data-layout paper's Himeno form A[I][J][K][4] -> A[I][J][4][K]; a float array with a
// 3-cycle permutation (dimension 1 goes to 2, 2 to 3, 3 to 1: [I][J][K] -> [K][I][J]); an
// int array in 2-D transposed. Enter/exit data inside the blocks. Compared with the host.
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t | FileCheck %s
// CHECK: raw element moved
// CHECK: 4-D: ok
// CHECK: 3-cycle: ok
// CHECK: 2-D int: ok
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define I 9
#define J 7
#define K 33

int main(void) {
  int n = I * J * K * 4;
  double *a = malloc(n * sizeof(double)), *r = malloc(n * sizeof(double));
  for (int x = 0; x < n; x++)
    a[x] = r[x] = x * 0.5;
#pragma ptxcc trans transpose(a[0:I][0:J][0:K][0:4], [1,2,4,3])
  {
#pragma omp target enter data map(to : a[0:n])
    // The device copy is [I][J][4][K]: element (1,2,3,c=2) at ((1*J + 2)*4 + 2)*K + 3.
    double raw;
    omp_target_memcpy(&raw, omp_get_mapped_ptr(a, omp_get_default_device()), sizeof raw,
                      0, (((1 * J + 2) * 4 + 2) * K + 3) * sizeof(double), omp_get_initial_device(),
                      omp_get_default_device());
    if (raw == r[((1 * J + 2) * K + 3) * 4 + 2])
      printf("raw element moved\n");
    else
      printf("raw element WRONG\n");
#pragma omp target teams distribute parallel for collapse(3)
    for (int i = 0; i < I; i++)
      for (int j = 0; j < J; j++)
        for (int k = 1; k < K; k++)
          for (int c = 0; c < 4; c++)
            a[((i * J + j) * K + k) * 4 + c] += c * a[((i * J + j) * K + k - 1) * 4 + 3 - c] - 1.0;
#pragma omp target exit data map(from : a[0:n])
  }
  for (int i = 0; i < I; i++)
    for (int j = 0; j < J; j++)
      for (int k = 1; k < K; k++)
        for (int c = 0; c < 4; c++)
          r[((i * J + j) * K + k) * 4 + c] += c * r[((i * J + j) * K + k - 1) * 4 + 3 - c] - 1.0;
  int bad = 0;
  for (int x = 0; x < n; x++)
    bad += a[x] != r[x];
  printf("4-D: %s\n", bad ? "WRONG" : "ok");

  static float f[5][6][40], g[5][6][40];
  for (int i = 0; i < 5; i++)
    for (int j = 0; j < 6; j++)
      for (int k = 0; k < 40; k++)
        f[i][j][k] = i + j * 0.25f + k * 0.125f;
#pragma ptxcc trans transpose(f[0:5][0:6][0:40], [2,3,1])
#pragma omp target teams distribute parallel for collapse(2) map(tofrom : f) map(from : g)
  for (int i = 0; i < 5; i++)
    for (int j = 0; j < 6; j++)
      for (int k = 0; k < 40; k++) {
        g[i][j][k] = f[i][j][k] * 2.0f + f[(i + 1) % 5][j][(k + 1) % 40];
      }
  bad = 0;
  for (int i = 0; i < 5; i++)
    for (int j = 0; j < 6; j++)
      for (int k = 0; k < 40; k++) {
        float v = i + j * 0.25f + k * 0.125f;
        float w = (i + 1) % 5 + j * 0.25f + ((k + 1) % 40) * 0.125f;
        bad += g[i][j][k] != v * 2.0f + w || f[i][j][k] != v;
      }
  printf("3-cycle: %s\n", bad ? "WRONG" : "ok");

  static int m[50][37];
  for (int i = 0; i < 50; i++)
    for (int j = 0; j < 37; j++)
      m[i][j] = i * 1000 + j;
#pragma ptxcc trans transpose(m[0:50][0:37], [2,1])
  {
#pragma omp target teams distribute parallel for map(tofrom : m)
    for (int i = 0; i < 50; i++)
      for (int j = 0; j < 37; j++)
        m[i][j] = m[i][j] * 2 + (j > 0 ? 1 : 0);
  }
  bad = 0;
  for (int i = 0; i < 50; i++)
    for (int j = 0; j < 37; j++)
      bad += m[i][j] != (i * 1000 + j) * 2 + (j > 0);
  printf("2-D int: %s\n", bad ? "WRONG" : "ok");
  free(a);
  free(r);
  return 0;
}
