// Scalars a kernels loop writes keep the value the sequential loop leaves in them (a kernels
// region's scalars are copy): one written in every iteration is private with the last
// iteration's value copied out; one written only under a condition makes the loop sequential
// (also when the loop's whole body is the if).
// REQUIRES: libptxrt
// RUN: %ptxcc -fopenacc -fptxcc-info %s -o %t 2>%t.info && %run %t | FileCheck %s
// RUN: FileCheck --check-prefix=INFO %s < %t.info
// CHECK: PASS
// INFO: kernels-live-out.c:[[@LINE+11]]: made private to each thread, the last iteration's value kept: last
// INFO: kernels-live-out.c:[[@LINE+11]]: made private to each thread, the last iteration's value kept: j, t
// INFO: kernels-live-out.c:[[@LINE+16]]: loop not parallelized: loop-carried dependence on found
#include <stdio.h>
#include <stdlib.h>
int main(void) {
  int n = 1000, last = -1, found = -1, j, bad = 0;
  double *a = malloc(n * sizeof(double)), t = 0;
  for (int i = 0; i < n; i++) a[i] = i;
  #pragma acc kernels copy(a[0:n])
  {
    for (int i = 0; i < n; i++) { last = i; a[i] += 1; }
    for (int i = 0; i < n; i++) {
      t = a[i] * 2;
      for (j = 0; j < 3; j++) a[i] = t + j;
    }
  }
  #pragma acc kernels copyin(a[0:n])
  for (int i = 0; i < n; i++) if (a[i] > 1500) found = i;
  if (last != n - 1) bad |= 1;
  if (t != 2.0 * n || j != 3) bad |= 2;
  if (found != n - 1) bad |= 4;
  if (a[10] != 24) bad |= 8;
  printf("%s %d\n", bad ? "FAIL" : "PASS", bad);
  return bad;
}
