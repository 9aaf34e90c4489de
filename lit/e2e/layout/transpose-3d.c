// trans around a data region (the paper's nesting): a[I][J][K] lives as a[I][K][J] on the
// device. Several kernels, an update of a sub-section both ways, and the raw device copy read
// through omp_get_mapped_ptr: element (i,j,k) sits at (i*K + k)*J + j. Every result is
// compared with the same computation on the host.
// RUN: %ptxcc -fopenmp -O2 -fptxcc-info %s -o %t 2>&1 | FileCheck %s --check-prefix=INFO
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t | FileCheck %s
// INFO: {{.*}}transpose-3d.c:28: trans: 'a'[12][10][9] is laid out as [12][9][10] on the device
// INFO: trans: 'a' is a[12][9][10] on the device; {{[0-9]+}} accesses in 2 kernels rewritten
// CHECK: device layout: ok
// CHECK: update: ok
// CHECK: PASS
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define I 12
#define J 10
#define K 9
double a[I][J][K], b[I][J][K], ref[I][J][K];

static double init(int i, int j, int k) { return i * 100.0 + j * 10.0 + k; }

int main(void) {
  for (int i = 0; i < I; i++)
    for (int j = 0; j < J; j++)
      for (int k = 0; k < K; k++)
        a[i][j][k] = ref[i][j][k] = init(i, j, k);
#pragma ptxcc trans transpose(a[0:I][0:J][0:K], [1,3,2])
  {
#pragma omp target data map(tofrom : a) map(from : b)
    {
      // The raw device copy holds the permuted layout.
      double raw[I * J * K];
      omp_target_memcpy(raw, omp_get_mapped_ptr(a, omp_get_default_device()), sizeof raw, 0, 0,
                        omp_get_initial_device(), omp_get_default_device());
      int bad = 0;
      for (int i = 0; i < I; i++)
        for (int j = 0; j < J; j++)
          for (int k = 0; k < K; k++)
            bad += raw[(i * K + k) * J + j] != init(i, j, k);
      printf("device layout: %s\n", bad ? "WRONG" : "ok");
#pragma omp target teams distribute parallel for collapse(3)
      for (int i = 0; i < I; i++)
        for (int j = 0; j < J; j++)
          for (int k = 0; k < K; k++)
            b[i][j][k] = a[i][j][k] + (k > 0 ? a[i][j][k - 1] : 0) + (j > 0 ? a[i][j - 1][k] : 0);
      // Host changes one plane and sends it; the device doubles everything.
      for (int j = 0; j < J; j++)
        for (int k = 0; k < K; k++)
          a[5][j][k] = -1.0;
#pragma omp target update to(a[5:1][0:J][0:K])
#pragma omp target teams distribute parallel for collapse(3)
      for (int i = 0; i < I; i++)
        for (int j = 0; j < J; j++)
          for (int k = 0; k < K; k++)
            a[i][j][k] *= 2.0;
      // Part of the array back while it stays on the device.
#pragma omp target update from(a[2:2][0:J][0:K])
      int ubad = 0;
      for (int i = 2; i < 4; i++)
        for (int j = 0; j < J; j++)
          for (int k = 0; k < K; k++)
            ubad += a[i][j][k] != 2.0 * init(i, j, k);
      printf("update: %s\n", ubad ? "WRONG" : "ok");
    }
  }
  int bad = 0;
  for (int i = 0; i < I; i++)
    for (int j = 0; j < J; j++)
      for (int k = 0; k < K; k++) {
        double r = ref[i][j][k] + (k > 0 ? ref[i][j][k - 1] : 0) + (j > 0 ? ref[i][j - 1][k] : 0);
        double after = i == 5 ? -2.0 : 2.0 * ref[i][j][k];
        if (b[i][j][k] != r || a[i][j][k] != after) {
          if (bad++ < 5)
            printf("(%d,%d,%d): b %g (want %g), a %g (want %g)\n", i, j, k, b[i][j][k], r, a[i][j][k], after);
        }
      }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
