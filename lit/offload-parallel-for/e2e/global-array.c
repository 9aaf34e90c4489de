// A plain `parallel for` over global arrays, offloaded unchanged: the globals are mapped tofrom by
// OpenMP's implicit rules, the scalar firstprivate. PTXRT_DEBUG shows the launch at the loop's line.
// RUN: %ptxcc -fopenmp -O2 -fopenmp-offload-parallel-for=report %s -o %t 2> %t.report
// RUN: FileCheck %s --check-prefix=REPORT --implicit-check-not="warning: pointer" < %t.report
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY PTXRT_DEBUG=1 %t 2> %t.launches | FileCheck %s
// RUN: FileCheck %s --check-prefix=LAUNCH < %t.launches
// CHECK: saxpy on globals: PASS
#include <stdio.h>

#define N 100000
float x[N], y[N];

int main(void) {
  float a = 3.0f;
  for (int i = 0; i < N; i++) {
    x[i] = (float)i;
    y[i] = 1.0f;
  }
  // REPORT: global-array.c:[[@LINE+2]]: parallel for offloaded: target teams distribute parallel for
  // LAUNCH: ptxrt: launch {{.*}}global-array.c:[[@LINE+1]]:{{[0-9]+}}: kernel
#pragma omp parallel for
  for (int i = 0; i < N; i++)
    y[i] = a * x[i] + y[i];
  int ok = 1;
  for (int i = 0; i < N; i++)
    ok &= y[i] == 3.0f * i + 1.0f;
  printf("saxpy on globals: %s\n", ok ? "PASS" : "FAIL");
  return !ok;
}
