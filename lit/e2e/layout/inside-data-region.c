// The second nesting: a data region keeps b on the device, and a trans around one compute
// construct converts the device copy in device memory at its start and back at its end. The
// kernels before and after the block see the original layout; OpenACC's spelling of the
// directive (`acc trans`, the paper's braces) around an OpenACC data region and loop.
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t | FileCheck %s
// RUN: %ptxcc -fopenacc -O2 -DACC %s -o %t.acc
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t.acc | FileCheck %s
// CHECK: inside: ok
// CHECK: PASS
#include <stdio.h>

#define N 40
#define M 24
double b[N][M];

int main(void) {
  int bad = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      b[i][j] = i * 100 + j;
#ifndef ACC
#pragma omp target data map(tofrom : b)
  {
#pragma omp target teams distribute parallel for collapse(2)
    for (int i = 0; i < N; i++)
      for (int j = 0; j < M; j++)
        b[i][j] += 1;
#pragma ptxcc trans transpose(b[0:N][0:M], [2,1])
    {
#pragma omp target teams distribute parallel for collapse(2)
      for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++)
          b[i][j] = b[i][j] * 2 + (j > 0 ? b[i][j - 1] * 0 : 0);
#pragma omp target update from(b[3:1][0:M])
      for (int j = 0; j < M; j++)
        bad += b[3][j] != (300 + j + 1) * 2;
    }
#pragma omp target teams distribute parallel for collapse(2)
    for (int i = 0; i < N; i++)
      for (int j = 0; j < M; j++)
        b[i][j] += i < N - 1 ? 0 : 1;
  }
#else
#pragma acc data copy(b)
  {
#pragma acc parallel loop collapse(2)
    for (int i = 0; i < N; i++)
      for (int j = 0; j < M; j++)
        b[i][j] += 1;
#pragma acc trans transpose { b[0:N][0:M], [2,1] }
    {
#pragma acc parallel loop gang vector collapse(2)
      for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++)
          b[i][j] = b[i][j] * 2;
#pragma acc update self(b[3:1][0:M])
      for (int j = 0; j < M; j++)
        bad += b[3][j] != (300 + j + 1) * 2;
    }
#pragma acc parallel loop collapse(2)
    for (int i = 0; i < N; i++)
      for (int j = 0; j < M; j++)
        b[i][j] += i < N - 1 ? 0 : 1;
  }
#endif
  printf("inside: %s\n", bad ? "WRONG" : "ok");
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      if (b[i][j] != (i * 100 + j + 1) * 2 + (i == N - 1)) {
        if (bad++ < 4)
          printf("b[%d][%d] = %g\n", i, j, b[i][j]);
      }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
