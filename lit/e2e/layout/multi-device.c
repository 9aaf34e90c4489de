// A trans block under -fptxcc-multi-device (issue 18): the converted device copy is one
// device's, so while an array is converted its constructs run whole on their device, also the
// layout version of a kernel launched by a function the block calls; after the block the same
// loops split over the devices again. Before, the split kernel wrote bytes of the converted
// copy outside the ranges its access analysis gave, and libptxrt stopped the program.
// RUN: %ptxcc -fopenmp -fptxcc-multi-device -O2 %s -o %t
// RUN: env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 PTXRT_DEBUG=1 %run %t 2> %t.log | FileCheck %s
// RUN: FileCheck %s --check-prefix=LOG < %t.log
// CHECK: inside: ok
// CHECK: called: ok
// CHECK: after: ok
// LOG-NOT: split {{.*}}_main_l
// LOG: kernel '__omp_offloading_{{.*}}_sweep_l{{[0-9]+}}_layout1'
// LOG: split {{.*}}kernel '__omp_offloading_{{.*}}_sweep_l{{[0-9]+}}', 64 iterations
#include <stdio.h>
#include <stdlib.h>
#define N 64
#define M 48
double a[N][M];

static void sweep(void) {
#pragma omp target teams distribute parallel for map(tofrom : a)
  for (int j = 0; j < N; j++)
    for (int i = 0; i < M; i++)
      a[j][i] += 1.0;
}

static int check(double add, const char *what) {
  for (int j = 0; j < N; j++)
    for (int i = 0; i < M; i++)
      if (a[j][i] != j * M + i + add + 0.5 * i * 4) {
        printf("%s: wrong at [%d][%d]: %g\n", what, j, i, a[j][i]);
        return 0;
      }
  printf("%s: ok\n", what);
  return 1;
}

int main(void) {
  int ok = 1;
  for (int j = 0; j < N; j++)
    for (int i = 0; i < M; i++)
      a[j][i] = j * M + i;
#pragma ptxcc trans transpose(a[0:N][0:M], [2,1])
  {
#pragma omp target data map(tofrom : a)
    for (int it = 0; it < 4; it++) {
#pragma omp target teams distribute parallel for
      for (int j = 0; j < N; j++)
        for (int i = 0; i < M; i++)
          a[j][i] += 0.5 * i;
    }
    ok &= check(0, "inside");
#pragma omp target data map(tofrom : a)
    for (int it = 0; it < 3; it++)
      sweep();
    ok &= check(3, "called");
  }
  sweep();
  ok &= check(4, "after");
  return !ok;
}
