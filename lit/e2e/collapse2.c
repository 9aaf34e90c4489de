// collapse(2) over a rectangular nest whose extents are not multiples of anything (and a collapse(3)),
// each (i, j) visited exactly once.
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t | FileCheck %s
// CHECK: PASS
#include <stdio.h>

int main(void) {
  enum { NI = 37, NJ = 53, NK = 11 };
  static int h2[NI][NJ], h3[NI][NJ][NK];
  static double v[NI][NJ];
#pragma omp target teams distribute parallel for collapse(2) map(tofrom : h2, v)
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++) {
      h2[i][j] += 1;
      v[i][j] = i * 1000.0 + j;
    }
#pragma omp target teams distribute parallel for collapse(3) map(tofrom : h3)
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++)
      for (int k = 0; k < NK; k++)
        h3[i][j][k] += i + j + k;
  int ok = 1;
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++) {
      ok &= h2[i][j] == 1 && v[i][j] == i * 1000.0 + j;
      for (int k = 0; k < NK; k++)
        ok &= h3[i][j][k] == i + j + k;
    }
  printf("%s\n", ok ? "PASS" : "FAIL");
  return !ok;
}
