// -fptxcc-layout=auto leaves alone a global array whose address a kernel stores in memory,
// in any target region of the file: a later kernel may load that pointer from device memory
// and follow it into the device copy, which no launch check sees — into the converted layout
// (in place), or into freed memory (a conversion that moved the copy). Here a kernel of the
// outer data region keeps &v[0][0] in `keep`; the inner region sums v's rows, a thread a row,
// in a loop (v[64][48] would otherwise become [48][64]), and reads v[1][2] through `keep`.
// RUN: %ptxcc -fopenmp -O2 -fptxcc-layout=auto -fptxcc-info %s -o %t 2>&1 | FileCheck %s --check-prefix=INFO
// RUN: %run %t | FileCheck %s
// RUN: env PTXRT_LAYOUT_AUTO=always %run %t | FileCheck %s
// The outer region (the store is one of its kernels), then the inner one (it is not):
// INFO: auto-stored-address.c:[[#OUTER:]]:1: layout: v[64][48] stays: safety cannot be proved (in the kernel of the target region at {{.*}}auto-stored-address.c:[[#STORE:]]:1, its address is stored where other code may read it: a kernel may follow that pointer into the converted copy)
// INFO: auto-stored-address.c:[[#STORE+2]]:1: layout: v[64][48] stays: safety cannot be proved (in the kernel of the target region at {{.*}}auto-stored-address.c:[[#STORE]]:1, its address is stored
// INFO-NOT: layout: v[64][48] ->
// CHECK: stored: ok
// CHECK: PASS
#include <stdio.h>

#define I 64
#define J 48
static float v[I][J];
static float sum[I];
static float *keep[1];

int main(void) {
  for (int i = 0; i < I; i++)
    for (int j = 0; j < J; j++)
      v[i][j] = i + 0.25f * j;
  float seen = -1;
#pragma omp target data map(to : v) map(alloc : keep)
  {
#pragma omp target
    keep[0] = &v[0][0];
#pragma omp target data map(to : v) map(tofrom : sum)
    for (int it = 0; it < 8; it++) {
#pragma omp target teams distribute parallel for
      for (int i = 0; i < I; i++) {
        float s = 0;
        for (int j = 0; j < J; j++)
          s += v[i][j];
        sum[i] += s;
      }
#pragma omp target map(from : seen)
      seen = keep[0][1 * J + 2];
    }
  }
  int bad = 0;
  for (int i = 0; i < I; i++) {
    float s = 0;
    for (int j = 0; j < J; j++)
      s += v[i][j];
    bad += sum[i] != 8 * s;
  }
  int ok = !bad && seen == v[1][2];
  printf("stored: %s\n", ok ? "ok" : "WRONG");
  printf("%s\n", ok ? "PASS" : "FAIL");
  return 0;
}
