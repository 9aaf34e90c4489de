// lastprivate on combined constructs, and a local of the teams code written by one thread of
// its parallel loop: both need one copy per team (block shared memory), not one per thread.
// RUN: %ptxcc -fopenmp -O2 %s -o %t && %run %t | FileCheck %s
// RUN: %ptxcc -fopenmp -O0 %s -o %t0 && %run %t0 | FileCheck %s
// CHECK: last=999 lastc=999 found=1 rows_ok=1
#include <stdio.h>
int main(void) {
  int n = 1000, last = -1, lastc = -1, found = 0, rows_ok = 1;
  static double a[1000];
  static int flags[10];
#pragma omp target teams distribute parallel for lastprivate(last) map(tofrom: last, a)
  for (int i = 0; i < n; i++) { a[i] = i; last = i; }
#pragma omp target parallel for lastprivate(lastc) map(tofrom: lastc) schedule(static, 3)
  for (int i = 0; i < n; i++) lastc = i;
#pragma omp target teams distribute map(to: a) map(from: flags)
  for (int r = 0; r < 10; r++) {
    int hit = 0;
#pragma omp parallel for
    for (int j = 0; j < 100; j++)
      if (a[r * 100 + j] == r * 100 + 42) hit = 1;
    flags[r] = hit;
  }
  for (int r = 0; r < 10; r++) rows_ok &= flags[r] == 1;
  found = rows_ok;
  printf("last=%d lastc=%d found=%d rows_ok=%d\n", last, lastc, found, rows_ok);
  return 0;
}
