// 64-bit trip counts and bounds: a loop of 2^32 + 3 iterations (more than a 32-bit counter holds; the
// body only counts, per thread, the iterations that hit a sparse pattern), loops whose indices start
// above 2^32, and a collapse(2) whose product overflows 32 bits.
// 2^31 and more iterations would take hours on a PTX interpreter:
// UNSUPPORTED: ptxsim
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t | FileCheck %s
// CHECK: big loop: 4097 marks, last index 4294967298
// CHECK: high indices: ok
// CHECK: collapse product: ok
// CHECK: PASS
#include <stdio.h>

#define MARKS 8192

int main(void) {
  const long n = (1L << 32) + 3;
  static int mark[MARKS];
  long last = -1;
  int ok = 1;
  /* every 2^20-th iteration marks its slot; the last iteration records its index */
#pragma omp target teams distribute parallel for map(tofrom : mark, last)
  for (long i = 0; i < n; i++) {
    if ((i & ((1L << 20) - 1)) == 0)
      mark[i >> 20] += 1;
    if (i == n - 1)
      last = i;
  }
  int marks = 0;
  for (int k = 0; k < MARKS; k++) {
    marks += mark[k];
    ok &= mark[k] == (k <= 4096);
  }
  printf("big loop: %d marks, last index %ld\n", marks, last);
  ok &= last == n - 1;

  static double v[1000];
  const long base = 5L << 32;
#pragma omp target teams distribute parallel for map(tofrom : v)
  for (long i = base; i < base + 1000; i++)
    v[i - base] = (double)(i - base) + 0.5;
  int hi = 1;
  for (int k = 0; k < 1000; k++)
    hi &= v[k] == k + 0.5;
  printf("high indices: %s\n", hi ? "ok" : "wrong");
  ok &= hi;

  /* 65537 x 65537 = 2^32 + 2^17 + 1 iterations collapsed: only the diagonal does work */
  const long m = 65537;
  static int diag[65537];
#pragma omp target teams distribute parallel for collapse(2) map(tofrom : diag)
  for (long i = 0; i < m; i++)
    for (long j = 0; j < m; j++)
      if (i == j && (i % 7) == 0)
        diag[i] += 1;
  int cp = 1;
  for (long i = 0; i < m; i++)
    cp &= diag[i] == ((i % 7) == 0);
  printf("collapse product: %s\n", cp ? "ok" : "wrong");
  ok &= cp;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return !ok;
}
