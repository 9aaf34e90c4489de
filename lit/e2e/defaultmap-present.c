// defaultmap(present) in the forms ptxcc takes (OpenMP 5.1 §5.8.7): aggregates and pointers
// must already be present and the region uses their device copies (the host's stay as they
// were); scalars are mapped present explicitly (defaultmap(present) over scalars is refused,
// lit/driver/defaultmap-present-scalar.c).
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: %run %t | FileCheck %s
// CHECK: device saw: 1 50 10
// CHECK-NEXT: host kept: 1 50 10
// CHECK-NEXT: device kept: 7 150 110
// CHECK-NEXT: PASS
#include <stdio.h>

#define N 64
struct S {
  int s;
  int v[N];
};

int main(void) {
  int scalar = 1, A[N], seen[3] = {0, 0, 0}, kept[3] = {0, 0, 0};
  struct S st;
  for (int i = 0; i < N; i++)
    A[i] = i, st.v[i] = 10;
  st.s = 10;
#pragma omp target enter data map(to : scalar, A, st)
#pragma omp target map(tofrom : seen) map(present, tofrom : scalar) defaultmap(present : aggregate)
  {
    seen[0] = scalar, seen[1] = A[50], seen[2] = st.v[3];
    scalar = 7, A[50] = 150, st.v[3] = 110;
  }
  printf("device saw: %d %d %d\n", seen[0], seen[1], seen[2]);
  printf("host kept: %d %d %d\n", scalar, A[50], st.v[3]);
#pragma omp target map(tofrom : kept) map(present, tofrom : scalar) defaultmap(present : aggregate)
  kept[0] = scalar, kept[1] = A[50], kept[2] = st.v[3];
  printf("device kept: %d %d %d\n", kept[0], kept[1], kept[2]);
#pragma omp target exit data map(delete : scalar, A, st)
  int ok = seen[0] == 1 && seen[1] == 50 && seen[2] == 10 && kept[0] == 7 && kept[1] == 150 &&
           kept[2] == 110 && A[50] == 50;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return !ok;
}
