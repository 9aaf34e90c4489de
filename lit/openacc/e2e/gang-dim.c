// Multi-dimensional gangs: num_gangs(a, b[, c]) and gang(dim:d) loops give the serial answer;
// tightly nested gang(dim:2) / gang(dim:1) loops are spread over all the gangs together (with
// 2 rows and 32 gangs, every gang gets work), other nests run the inner loop in each gang.
// REQUIRES: libptxrt
// RUN: %ptxcc -fopenacc %s -o %t && %run %t | FileCheck %s
// CHECK: PASS
#include <stdio.h>
#include <omp.h>
#define R 2
#define C 64
#define G1 4
#define G2 8

int main(void) {
  int bad = 0;
  static float b[R][C], want[R][C];
  static int team[R][C];
  static float v[3][R][C], wantv[3][R][C];
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) b[i][j] = want[i][j] = i * C + j;

  // Tightly nested: both loops over the G1*G2 gangs.
  #pragma acc parallel num_gangs(G1, G2) copy(b) copyout(team)
  {
    #pragma acc loop gang(dim:2)
    for (int i = 0; i < R; i++) {
      #pragma acc loop gang(dim:1)
      for (int j = 0; j < C; j++) {
        b[i][j] = 2 * b[i][j] + 1;
        team[i][j] = omp_get_team_num();
      }
    }
  }
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) want[i][j] = 2 * want[i][j] + 1;
  int used[G1 * G2] = {0}, nused = 0;
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) {
      if (b[i][j] != want[i][j]) { printf("collapse: b[%d][%d] = %g, want %g\n", i, j, b[i][j], want[i][j]); bad++; }
      int t = team[i][j];
      if (t < 0 || t >= G1 * G2) { printf("collapse: team %d\n", t); bad++; continue; }
      if (!used[t]++) nused++;
    }
  if (nused != G1 * G2) { printf("collapse: %d of %d gangs had work\n", nused, G1 * G2); bad++; }

  // Three dimensions, combined construct, a reduction in the innermost loop.
  for (int k = 0; k < 3; k++)
    for (int i = 0; i < R; i++)
      for (int j = 0; j < C; j++) v[k][i][j] = wantv[k][i][j] = k + i - j;
  double sum = 0, wsum = 0;
  #pragma acc parallel loop gang(dim:3) num_gangs(2, 2, 2) copy(v) reduction(+: sum)
  for (int k = 0; k < 3; k++)
    #pragma acc loop gang(dim:2)
    for (int i = 0; i < R; i++)
      #pragma acc loop gang(dim:1) reduction(+: sum)
      for (int j = 0; j < C; j++) { v[k][i][j] *= 3; sum += v[k][i][j]; }
  for (int k = 0; k < 3; k++)
    for (int i = 0; i < R; i++)
      for (int j = 0; j < C; j++) { wantv[k][i][j] *= 3; wsum += wantv[k][i][j]; }
  for (int k = 0; k < 3; k++)
    for (int i = 0; i < R; i++)
      for (int j = 0; j < C; j++)
        if (v[k][i][j] != wantv[k][i][j]) { printf("3-D: v[%d][%d][%d] = %g\n", k, i, j, v[k][i][j]); bad++; }
  if (sum != wsum) { printf("3-D: sum %g, want %g\n", sum, wsum); bad++; }

  // Not tightly nested: a row statement, then the gang(dim:1) loop in the gang of that row.
  #pragma acc parallel loop gang(dim:2) num_gangs(G1, G2) copy(b)
  for (int i = 0; i < R; i++) {
    float first = b[i][0];
    #pragma acc loop gang(dim:1) vector
    for (int j = 1; j < C; j++) b[i][j] -= first;
  }
  for (int i = 0; i < R; i++)
    for (int j = 1; j < C; j++) want[i][j] -= want[i][0];
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      if (b[i][j] != want[i][j]) { printf("nested: b[%d][%d] = %g, want %g\n", i, j, b[i][j], want[i][j]); bad++; }

  printf("%s %d\n", bad ? "FAIL" : "PASS", bad);
  return bad != 0;
}
