// OpenMP 5.x memory-order clauses on atomics in target regions (seq_cst, acquire, release,
// acq_rel) compile and keep their values: LLVM 19's NVPTX back end aborted on acquire/seq_cst
// reads and release writes; ptxcc puts membar fences around relaxed accesses (atomic-orderings).
// The maximum is OpenMP 5.1's compare capture: 'max = max > i ? max : i' is not an atomic
// read-modify-write form (clang exchanges a value read outside the atomic: lost updates, and
// ptxcc warns, lit/driver/atomic-self-read.c).
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: %run %t | FileCheck %s
// CHECK: counter 4096 max 4095 flag 1 seen 1 data 42
// CHECK: PASS
#include <stdio.h>

int main(void) {
  int counter = 0, max = -1, flag = 0, seen = 0, data = 0;
#pragma omp target teams distribute parallel for map(tofrom : counter, max) num_teams(8)
  for (int i = 0; i < 4096; i++) {
#pragma omp atomic update seq_cst
    counter += 1;
    int old;
#pragma omp atomic compare capture acq_rel
    { old = max; if (max < i) max = i; }
    (void)old;
  }
#pragma omp target map(tofrom : flag, seen, data)
  {
    data = 42;
#pragma omp atomic write release
    flag = 1;
    int f;
#pragma omp atomic read acquire
    f = flag;
    int g;
#pragma omp atomic read seq_cst
    g = data;
    seen = f && g == 42;
  }
  printf("counter %d max %d flag %d seen %d data %d\n", counter, max, flag, seen, data);
  int ok = counter == 4096 && max == 4095 && flag == 1 && seen == 1 && data == 42;
  printf(ok ? "PASS\n" : "FAIL\n");
  return !ok;
}
