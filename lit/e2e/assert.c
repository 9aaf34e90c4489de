// assert() in target regions: one that holds costs nothing visible; one that fails stops the
// program with the assertion's message (on the GPU CUDA's __assertfail prints it with the block
// and thread; the emulator's code calls the host's __assert_fail). An assert in the code of a
// teams region around its parallel loop is allowed too (every thread sees the same values).
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t | FileCheck %s
// RUN: %ptxcc -fopenmp -O2 -DFAIL %s -o %tf
// The emulator aborts (a crash, as on the host); CUDA reports the assert as a kernel error and
// libptxrt exits with status 1. glibc quotes the expression `so', CUDA `so`.
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %if ptxsim || gpu %{not%} %else %{not --crash%} %tf 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FAILED
// CHECK: 99 1
// FAILED: assert.c:[[#@LINE+13]]: {{.*}}Assertion `i < LIMIT{{['`]}} failed.
#include <assert.h>
#include <stdio.h>
#ifdef FAIL
#define LIMIT 50
#else
#define LIMIT 100
#endif

int main(void) {
  int a[100], rows[4];
#pragma omp target teams distribute parallel for map(from : a)
  for (int i = 0; i < 100; i++) {
    assert(i < LIMIT);
    a[i] = i;
  }
#pragma omp target teams distribute map(from : rows)
  for (int t = 0; t < 4; t++) {
    assert(t >= 0);
    int hit = 0;
#pragma omp parallel for reduction(+ : hit)
    for (int j = 0; j < 8; j++)
      hit += j == 3;
    rows[t] = hit;
  }
  printf("%d %d\n", a[99], rows[3]);
  return 0;
}
