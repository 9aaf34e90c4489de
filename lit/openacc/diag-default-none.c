// default(none): every variable the region uses must appear in a data clause (or an enclosing
// data construct's).
// RUN: not %ptxcc -fopenacc -c %s -o /dev/null 2>&1 | FileCheck %s

void f(int n, float *a, float k) {
  float b[10];
  #pragma acc data copy(b)
  {
    #pragma acc parallel loop default(none) copy(a[0:n]) firstprivate(n)
    // CHECK: diag-default-none.c:[[@LINE+1]]:52: error: variable 'k' is used in the '#pragma acc parallel loop' region with default(none) but appears in no data clause
    for (int i = 0; i < n; i++) a[i] = b[i % 10] * k;
  }
  // CHECK-NOT: variable 'b'
  // CHECK-NOT: variable 'i'
}
