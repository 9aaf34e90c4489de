// Loops with negative and non-unit steps, unsigned and <= / >= bounds: every iteration the serial loop
// runs (and only those) runs once on the device.
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t | FileCheck %s
// CHECK: PASS
#include <stdio.h>
#include <string.h>

#define N 1000
static int dev[6][N], host[6][N];

int main(void) {
#pragma omp target data map(tofrom : dev)
  {
#pragma omp target teams distribute parallel for
    for (int i = N - 1; i >= 0; i--) /* step -1 */
      dev[0][i] += 1;
#pragma omp target teams distribute parallel for
    for (int i = 3; i < N; i += 7) /* step 7 */
      dev[1][i] += 1;
#pragma omp target teams distribute parallel for
    for (int i = N - 2; i > 5; i -= 3) /* step -3 */
      dev[2][i] += 1;
#pragma omp target teams distribute parallel for
    for (unsigned u = 10; u <= 900; u += 11) /* unsigned, inclusive bound */
      dev[3][u] += 1;
#pragma omp target teams distribute parallel for
    for (long l = 999; l >= 1; l -= 2) /* 64-bit, negative step, inclusive */
      dev[4][l] += 1;
#pragma omp target teams distribute parallel for collapse(2)
    for (int i = 20; i > 0; i -= 4) /* collapse of a negative and a positive non-unit step */
      for (int j = 1; j < 40; j += 3)
        dev[5][i * 40 + j] += 1;
  }
  for (int i = N - 1; i >= 0; i--)
    host[0][i] += 1;
  for (int i = 3; i < N; i += 7)
    host[1][i] += 1;
  for (int i = N - 2; i > 5; i -= 3)
    host[2][i] += 1;
  for (unsigned u = 10; u <= 900; u += 11)
    host[3][u] += 1;
  for (long l = 999; l >= 1; l -= 2)
    host[4][l] += 1;
  for (int i = 20; i > 0; i -= 4)
    for (int j = 1; j < 40; j += 3)
      host[5][i * 40 + j] += 1;
  int ok = 1;
  for (int k = 0; k < 6; k++)
    if (memcmp(dev[k], host[k], sizeof dev[k]) != 0) {
      ok = 0;
      printf("loop %d differs\n", k);
    }
  printf("%s\n", ok ? "PASS" : "FAIL");
  return !ok;
}
