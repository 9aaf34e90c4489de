// A pointer the offloaded loop never dereferences (only compares) goes to the kernel as the
// host's address (split/access_maps.rs: nothing to map). Under -fptxcc-multi-device it must
// not stop the split as if it were an is_device_ptr pointer into one device's memory: no
// device reads through it, so every part may receive it as it is.
// RUN: %ptxcc -fopenmp -O2 -fopenmp-offload-parallel-for -fptxcc-multi-device %s -o %t
// RUN: env PTXRT_EMU_DEVICES=1 PTXSIM_DEVICES=1 %run %t | FileCheck %s
// RUN: env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 PTXRT_DEBUG=1 %run %t 2> %t.debug | FileCheck %s
// RUN: FileCheck %s --check-prefix=SPLIT < %t.debug
// CHECK: 0 mismatches
// SPLIT-NOT: runs on one device
// SPLIT: split {{.*}}untouched-pointer.c:[[@LINE+5]]:1: kernel '{{.*}}', 1000 iterations: [0, 500) on device 0, [500, 1000) on device 1
#include <stdio.h>
#include <stdlib.h>

void scale(double *y, const double *w, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    y[i] = 2 * y[i] + (w + i != y + i + 1);
}

int main(void) {
  enum { N = 1000 };
  static double y[N], r[N];
  double *w = malloc(sizeof *w);
  for (int i = 0; i < N; i++)
    y[i] = r[i] = i * 0.5;
  scale(y, w, N);
  for (int i = 0; i < N; i++)
    r[i] = 2 * r[i] + (w + i != r + i + 1);
  int bad = 0;
  for (int i = 0; i < N; i++)
    bad += y[i] != r[i];
  printf("%d mismatches\n", bad);
  free(w);
  return bad != 0;
}
