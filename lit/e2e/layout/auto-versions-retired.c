// A layout version whose arrays -fptxcc-layout=auto keeps as they are is
// never launched, so it is not compiled either (issue 18): after the device side decides, its
// offer is erased from the host code and its kernel left empty, which keeps auto's compile time
// near that of -fptxcc-layout=none (issue 15, and a default of auto one day). -fptxcc-info does not mention it. The kernel
// itself still runs, and gives the serial answer.
// RUN: %ptxcc -fopenmp -O2 -fptxcc-layout=auto -fptxcc-info %s -o %t 2>&1 | FileCheck %s --check-prefix=INFO
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %run %t | FileCheck %s
// RUN: %ptxcc -fopenmp -O2 -fptxcc-layout=auto --emit=ptx %s -o - | FileCheck %s --check-prefix=PTX
// RUN: %ptxcc -fopenmp -O2 -fptxcc-layout=auto --emit=host-ir %s -o - | FileCheck %s --check-prefix=HOST
// INFO-NOT: _layout1
// INFO: auto-versions-retired.c:{{[0-9]+}}:1: layout: x[?] stays: already coalesced
// INFO-NOT: _layout1
// CHECK: doubled: ok
// The version is an empty kernel; the kernel keeps its loop.
// PTX: .entry __omp_offloading_{{.*}}_scale_l[[#K:]](
// PTX: ld.global.f64
// PTX: .entry __omp_offloading_{{.*}}_scale_l[[#K]]_layout1(
// PTX-NEXT: .param
// PTX-NEXT: .param
// PTX-NEXT: )
// PTX-NEXT: {
// PTX-EMPTY:
// PTX-EMPTY:
// PTX-NEXT: ret;
// HOST-NOT: call void @__ptxcc_layout_variant(
#include <stdio.h>
#include <stdlib.h>

void scale(double *restrict x, int n) {
#pragma omp target teams distribute parallel for map(tofrom : x[0:n])
  for (int i = 0; i < n; i++)
    x[i] *= 2;
}

int main(void) {
  int n = 1000, ok = 1;
  double *x = malloc(n * sizeof *x);
  for (int i = 0; i < n; i++)
    x[i] = i;
#pragma omp target data map(tofrom : x[0:n])
  for (int it = 0; it < 3; it++)
    scale(x, n);
  for (int i = 0; i < n; i++)
    ok &= x[i] == 8.0 * i;
  printf("doubled: %s\n", ok ? "ok" : "FAILED");
  free(x);
  return 0;
}
