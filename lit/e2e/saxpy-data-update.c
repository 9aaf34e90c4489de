// saxpy on data that stays on the device (target data), with target update in both directions: the host
// changes x between kernels and pushes it (update to), and reads y back mid-region (update from).
// Checked against the same arithmetic on the host, element by element (exact: small integers).
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t | FileCheck %s
// CHECK: mid-region y matches
// CHECK: PASS
#include <stdio.h>
#include <stdlib.h>

static void saxpy(long n, float a, const float *x, float *y) {
#pragma omp target teams distribute parallel for
  for (long i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}

int main(void) {
  const long n = 100003; /* not a multiple of any block size */
  float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), *ry = malloc(n * sizeof *ry);
  for (long i = 0; i < n; i++) {
    x[i] = (float)(i % 101);
    y[i] = ry[i] = (float)(i % 7);
  }
  int ok = 1;
#pragma omp target data map(to : x[0:n]) map(tofrom : y[0:n])
  {
    saxpy(n, 2.0f, x, y);
    for (long i = 0; i < n; i++)
      ry[i] = 2.0f * x[i] + ry[i];
#pragma omp target update from(y[0:n])
    long bad = 0;
    for (long i = 0; i < n; i++)
      bad += y[i] != ry[i];
    printf("mid-region y %s (%ld wrong)\n", bad ? "differs" : "matches", bad);
    ok &= bad == 0;
    for (long i = 0; i < n; i++) /* new x on the host, then to the device */
      x[i] = (float)(i % 13) - 6.0f;
#pragma omp target update to(x[0:n])
    saxpy(n, 0.5f, x, y);
    saxpy(n, 0.5f, x, y);
    for (long i = 0; i < n; i++)
      ry[i] = 0.5f * x[i] + (0.5f * x[i] + ry[i]);
  }
  long bad = 0;
  for (long i = 0; i < n; i++)
    if (y[i] != ry[i] && bad++ < 3)
      printf("y[%ld] = %g, expected %g\n", i, y[i], ry[i]);
  ok &= bad == 0;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return !ok;
}
