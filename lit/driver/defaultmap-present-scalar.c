// defaultmap(present) over scalars and pointers (no category, scalar, pointer, all) is refused
// at the clause when the region uses such a variable that no clause names: clang 19 maps it as
// present but compiles the kernel to take it by value, so the region would read (or write
// through) an address instead of the device copy. The message names the variables. A region
// that uses only arrays and structs (and scalars of its own, named in a clause, or its loop's
// variable, or a pointer it assigns before reading it) compiles: there defaultmap(present)
// means the aggregate category
// (lit/e2e/defaultmap-present.c and defaultmap-present-arrays.c run them).
// RUN: not %ptxcc -fopenmp -c %s -o /dev/null 2>&1 | FileCheck %s
int s, a[8];
struct P {
  int v[4];
} st;
void f(int n, double *p) {
  // CHECK: defaultmap-present-scalar.c:[[@LINE+1]]:20: error: ptxcc does not support 'defaultmap(present)' for the scalar variable 's' that this region uses: clang 19 passes scalars and pointers to the kernel by value, so the region would not use their device copies; map them explicitly (map(present, tofrom: s)) and write defaultmap(present: aggregate) for the rest
#pragma omp target defaultmap(present)
  s = a[1];
  // CHECK: defaultmap-present-scalar.c:[[@LINE+1]]:35: error: ptxcc does not support 'defaultmap(present: scalar)' for the scalar variables 's', 'n' that this region uses
#pragma omp target map(tofrom: a) defaultmap(present: scalar)
  a[0] = s + n;
  // CHECK-NOT: error:
#pragma omp target map(present, tofrom: s) defaultmap(present: aggregate) defaultmap(present: pointer)
  s = a[2];
#pragma omp target map(present, alloc: p[0:n]) defaultmap(present)
  p[1] = a[7];
  // CHECK: defaultmap-present-scalar.c:[[@LINE+1]]:20: error: ptxcc does not support 'defaultmap(present: pointer)' for the pointer 'p' that this region uses: clang 19 passes scalars and pointers to the kernel by value, so the region would not use their device copies; map them explicitly (map(present, alloc: p[0:n]) for what it points to) and write defaultmap(present: aggregate) for the rest
#pragma omp target defaultmap(present: pointer) defaultmap(present: aggregate)
  p[0] = a[5];
  // CHECK-NOT: error:
#pragma omp target defaultmap(present)
  {
    int t = a[3] + st.v[1];
    double *q = 0;
    a[6] = t + (q != 0);
  }
#pragma omp target map(present, tofrom: s) defaultmap(present)
  a[4] = s;
#pragma omp target defaultmap(present: pointer)
  {
    p = (double *)a;
    p[0] = 1;
  }
  int i;
#pragma omp target teams distribute parallel for defaultmap(present)
  for (i = 0; i < 8; i++)
    a[i] = st.v[i % 4];
}
