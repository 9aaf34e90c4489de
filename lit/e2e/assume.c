// The `assume` directive (OpenMP 5.1; OpenMP 5.2 section 8.3.3), which clang 19 does not parse:
// the block runs as written, `holds` reaches LLVM as an assumption at its start. On the host, in
// a target region, and as the `then` branch of an if/else (the block stays one statement).
// RUN: %ptxcc -fopenmp -O1 %s -o %t
// RUN: %run %t | FileCheck %s
// CHECK: host 2016, device 4032, branches 1 -1
#include <stdio.h>
#define N 64

int main(void) {
  int n = N, a[N], s = 0, t = 0;
#pragma omp assume holds(n % 8 == 0) no_openmp_routines
  {
    for (int i = 0; i < n; i++)
      a[i] = i;
  }
  for (int i = 0; i < n; i++)
    s += a[i];
#pragma omp target map(tofrom : t) map(to : a)
  {
#pragma omp assume holds(n > 0) holds(n <= 1024) absent(parallel) contains(simd)
    for (int i = 0; i < n; i++)
      t += 2 * a[i];
  }
  int branch[2];
  for (int k = 0; k < 2; k++)
    if (k == 0)
#pragma omp assume holds(k == 0)
      branch[k] = 1;
    else
      branch[k] = -1;
  printf("host %d, device %d, branches %d %d\n", s, t, branch[0], branch[1]);
  return 0;
}
