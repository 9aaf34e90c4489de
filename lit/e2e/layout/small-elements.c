// Elements of 1 and 2 bytes (the conversion kernels' byte unit: a char array transposed
// through shared-memory tiles, a short array whose two bytes move together) and a long
// array, each changed by a kernel inside its trans block and compared with the host.
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t | FileCheck %s
// CHECK: char: ok
// CHECK: short: ok
// CHECK: long: ok
#include <stdio.h>

static signed char c[37][50];
static short s[20][30][3];
static long l[6][70][5];

int main(void) {
  for (int i = 0; i < 37; i++)
    for (int j = 0; j < 50; j++)
      c[i][j] = (signed char)(i * 3 + j);
#pragma ptxcc trans transpose(c[0:37][0:50], [2,1])
#pragma omp target teams distribute parallel for map(tofrom : c)
  for (int i = 0; i < 37; i++)
    for (int j = 0; j < 50; j++)
      c[i][j] = (signed char)(c[i][j] + 1);
  int bad = 0;
  for (int i = 0; i < 37; i++)
    for (int j = 0; j < 50; j++)
      bad += c[i][j] != (signed char)(i * 3 + j + 1);
  printf("char: %s\n", bad ? "WRONG" : "ok");

  for (int i = 0; i < 20; i++)
    for (int j = 0; j < 30; j++)
      for (int k = 0; k < 3; k++)
        s[i][j][k] = (short)(i * 1000 + j * 10 + k);
#pragma ptxcc trans transpose(s[0:20][0:30][0:3], [3,1,2])
#pragma omp target teams distribute parallel for collapse(2) map(tofrom : s)
  for (int i = 0; i < 20; i++)
    for (int j = 0; j < 30; j++)
      for (int k = 0; k < 3; k++)
        s[i][j][k] = (short)(s[i][j][k] * 2);
  bad = 0;
  for (int i = 0; i < 20; i++)
    for (int j = 0; j < 30; j++)
      for (int k = 0; k < 3; k++)
        bad += s[i][j][k] != (short)((i * 1000 + j * 10 + k) * 2);
  printf("short: %s\n", bad ? "WRONG" : "ok");

  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 70; j++)
      for (int k = 0; k < 5; k++)
        l[i][j][k] = i * 100000L + j * 100 + k;
#pragma ptxcc trans transpose(l[0:6][0:70][0:5], [3,2,1])
#pragma omp target teams distribute parallel for map(tofrom : l)
  for (int j = 0; j < 70; j++)
    for (int i = 0; i < 6; i++)
      for (int k = 0; k < 5; k++)
        l[i][j][k] += j;
  bad = 0;
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 70; j++)
      for (int k = 0; k < 5; k++)
        bad += l[i][j][k] != i * 100000L + j * 101 + k;
  printf("long: %s\n", bad ? "WRONG" : "ok");
  return 0;
}
