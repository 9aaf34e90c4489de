// update of data that is not present is an error (OpenACC 3.3, 2.14.4) unless if_present, which
// skips it; present data moves either way.
// REQUIRES: libptxrt
// RUN: %ptxcc -fopenacc %s -o %t && %run %t | FileCheck %s
// RUN: %ptxcc -fopenacc -DABSENT %s -o %t.absent && not %run %t.absent 2>&1 | FileCheck --check-prefix=ABSENT %s
// CHECK: PASS
// ABSENT: update-absent.c:[[@LINE+17]]:{{[0-9]+}}: variable 'b[0:n]' {{.*}} is not present on device
// ABSENT-NOT: PASS
#include <stdio.h>
#include <stdlib.h>
int main(void) {
  int n = 100, bad = 0;
  double *a = malloc(n * sizeof(double)), *b = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) { a[i] = i; b[i] = -i; }
  #pragma acc data copyin(a[0:n])
  {
    #pragma acc parallel loop present(a[0:n])
    for (int i = 0; i < n; i++) a[i] *= 2;
    #pragma acc update self(a[0:n], b[0:n]) if_present
    if (a[7] != 14 || b[7] != -7) bad |= 1;
    #pragma acc update self(a[0:n])
    if (a[9] != 18) bad |= 2;
#ifdef ABSENT
    #pragma acc update device(b[0:n])
#endif
  }
  printf("%s %d\n", bad ? "FAIL" : "PASS", bad);
  return bad;
}
