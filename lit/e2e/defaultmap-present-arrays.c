// defaultmap(present) without a category over a region that uses only arrays and a struct
// (OpenMP 5.1 §5.8.7: each must already be present; the region uses the device copies):
// the kernel writes the device copies (the host's stay as they were until an update), and an
// array that is not present stops the program with the runtime's located error.
// RUN: %ptxcc -fopenmp -O1 %s -o %t
// RUN: %run %t | FileCheck %s
// RUN: %ptxcc -fopenmp -O1 -DMISSING %s -o %t.missing
// RUN: not %run %t.missing 2>&1 | FileCheck %s --check-prefix=MISSING
// CHECK: host kept: 0 0 0
// CHECK-NEXT: device wrote: 100 63 7
// CHECK-NEXT: PASS
// MISSING: defaultmap-present-arrays.c:[[@LINE+17]]:1: variable 'B' {{.*}}is not present on device
#include <stdio.h>
#define N 64
struct S {
  int v[N];
};
int A[N], B[N];
struct S st;

int main(void) {
  for (int i = 0; i < N; i++)
    A[i] = B[i] = st.v[i] = 0;
#ifndef MISSING
#pragma omp target enter data map(to : A, B, st)
#else
#pragma omp target enter data map(to : A, st)
#endif
#pragma omp target teams distribute parallel for defaultmap(present)
  for (int i = 0; i < N; i++) {
    A[i] = 100;
    B[i] = i;
    st.v[i] = 7;
  }
  printf("host kept: %d %d %d\n", A[0], B[N - 1], st.v[5]);
#pragma omp target exit data map(from : A, B, st)
  printf("device wrote: %d %d %d\n", A[0], B[N - 1], st.v[5]);
  int ok = 1;
  for (int i = 0; i < N; i++)
    ok &= A[i] == 100 && B[i] == i && st.v[i] == 7;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return !ok;
}
