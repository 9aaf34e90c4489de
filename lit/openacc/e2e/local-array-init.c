// A function with an OpenACC construct and a local array initialised by a nested initializer
// list with implicit zeros (`double s[R][C] = {{1}};`). The directive front end asks libclang
// for the value of integer constant expressions in the function; libclang 19 crashed (and
// ptxcc with it, a segmentation fault) evaluating that initializer, whose value is no integer.
// REQUIRES: libptxrt
// RUN: %ptxcc -fopenacc -O2 %s -o %t && %run %t | FileCheck %s
// CHECK: s[0][0] = 1, s[7][63] = 0, v[5][0] = 5
// CHECK: PASS
#include <stdio.h>
#define R 8
#define C 64
static double v[R][C];
int main(void) {
#pragma acc parallel loop copyout(v)
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) v[i][j] = i + j;
  double s[R][C] = {{1}};
  int bad = 0;
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) bad += s[i][j] != (i == 0 && j == 0) || v[i][j] != i + j;
  printf("s[0][0] = %g, s[7][63] = %g, v[5][0] = %g\n", s[0][0], s[R - 1][C - 1], v[5][0]);
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad;
}
