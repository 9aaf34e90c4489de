// Array-section reductions of growing length next to scalar ones (the NPB EP pattern). The
// private words are read back as doubles by clang's combine function: a regression test for
// type-based alias analysis reordering those reads (sections of 8+ elements came back NaN).
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: %run %t | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASS
#include <stdio.h>
#define P(x) _Pragma(#x)
static int bad;
#define T(LEN, THREADS)                                                                        \
  {                                                                                            \
    double r[16] = {0}, s = 0, want[16] = {0}, ws = 0;                                         \
    for (long c = 0; c < 1000; c++) { want[c % LEN] += 1.0; ws += c; }                         \
    P(omp target teams distribute parallel for reduction(+ : s) reduction(+ : r[0:LEN])        \
          thread_limit(THREADS))                                                               \
    for (long c = 0; c < 1000; c++) { r[c % LEN] += 1.0; s += c; }                             \
    int ok = s == ws;                                                                          \
    for (int k = 0; k < LEN; k++) ok &= r[k] == want[k];                                       \
    if (!ok) { bad++; printf("FAIL len=%d threads=%d s=%g r0=%g\n", LEN, THREADS, s, r[0]); }  \
  }
int main(void) {
  T(1, 2) T(5, 2) T(8, 2) T(9, 2) T(16, 2)
  T(1, 64) T(5, 64) T(8, 64) T(9, 64) T(16, 64)
  T(16, 256)
  if (!bad) printf("PASS\n");
  return bad;
}
