// Array-section reductions of growing length next to scalar ones (the NPB EP pattern). The
// private words are read back as doubles by clang's combine function: a regression test for
// type-based alias analysis reordering those reads (sections of 8+ elements came back NaN).
// The section of a pointer parameter (EP's q) reaches the parallel level through a stack slot
// holding the address of the team's copy: that copy is still the team's own (it was taken for
// shared memory and the clause list rejected as mixing the two kinds of destination).
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
/* NPB EP's form: sx, sy and the section q[0:10] of a pointer, one clause list each kind. */
static void pointer_section(double *q, double *sxp, double *syp, int threads) {
  double sx = 0, sy = 0;
  P(omp target teams distribute parallel for reduction(+ : sx, sy) reduction(+ : q[0:10])
        map(tofrom : sx, sy, q[0:10]) thread_limit(threads))
  for (long c = 0; c < 100000; c++) { q[c % 10] += 1.0; sx += c; sy -= 2 * c; }
  *sxp = sx;
  *syp = sy;
}

int main(void) {
  for (int threads = 1; threads <= 1024; threads *= 4) {
    double q[10] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, sx, sy;
    pointer_section(q, &sx, &sy, threads);
    int ok = sx == 4999950000.0 && sy == -9999900000.0;
    for (int k = 0; k < 10; k++) ok &= q[k] == 10001.0;
    if (!ok) { bad++; printf("FAIL pointer section threads=%d sx=%g sy=%g q0=%g\n", threads, sx, sy, q[0]); }
  }
  T(1, 2) T(5, 2) T(8, 2) T(9, 2) T(16, 2)
  T(1, 64) T(5, 64) T(8, 64) T(9, 64) T(16, 64)
  T(16, 256)
  if (!bad) printf("PASS\n");
  return bad;
}
