// Doacross loops in OpenMP 5.2 spelling (section 15.9.6, the doacross clause; section 11.4, an
// `ordered` clause without parameter on a doacross loop nest counts the collapsed loops), which
// clang 19 refuses: ptxcc compiles them as OpenMP 5.1's depend(sink/source) with ordered(n).
// A prefix sum and a 2-D wavefront, each against its serial result; with -fopenmp-version=52
// clang reads the doacross clauses itself and ptxcc only numbers the loop.
// RUN: %ptxcc -fopenmp -O1 %s -o %t
// RUN: %run %t | FileCheck %s
// RUN: %ptxcc -fopenmp -fopenmp-version=52 -O1 %s -o %t52
// RUN: %run %t52 | FileCheck %s
// CHECK: prefix sum: 1000 of 1000 as serial; wavefront: 1024 of 1024 as serial
#include <stdio.h>
#define N 1000
#define M 32

int main(void) {
  static long a[N], s[N], w[M][M], ws[M][M];
  for (int i = 0; i < N; i++)
    a[i] = s[i] = (i * 37) % 11;
  for (int i = 1; i < N; i++)
    s[i] += s[i - 1];
#pragma omp parallel for ordered num_threads(4) schedule(static, 1)
  for (int i = 1; i < N; i++) {
#pragma omp ordered doacross(sink : i - 1)
    a[i] += a[i - 1];
#pragma omp ordered doacross(source : omp_cur_iteration)
  }
  int good = 1;
  for (int i = 1; i < N; i++)
    good += a[i] == s[i];

  for (int i = 0; i < M; i++)
    for (int j = 0; j < M; j++)
      w[i][j] = ws[i][j] = (i == 0 || j == 0) ? i + j : 0;
  for (int i = 1; i < M; i++)
    for (int j = 1; j < M; j++)
      ws[i][j] = ws[i - 1][j] + ws[i][j - 1] % 1000;
#pragma omp parallel for ordered collapse(2) num_threads(4)
  for (int i = 1; i < M; i++)
    for (int j = 1; j < M; j++) {
#pragma omp ordered doacross(sink : i - 1, j) doacross(sink : i, j - 1)
      w[i][j] = w[i - 1][j] + w[i][j - 1] % 1000;
#pragma omp ordered doacross(source :)
    }
  int wgood = 0;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < M; j++)
      wgood += w[i][j] == ws[i][j];
  printf("prefix sum: %d of %d as serial; wavefront: %d of %d as serial\n", good, N, wgood,
         M * M);
  return 0;
}
