// cache: a hint; ptxcc leaves the data in device memory (legal per the specification).
// RUN: %ptxcc -fopenacc -fopenacc-print=omp %s | FileCheck %s

void f(int n, float *a) {
  #pragma acc parallel loop copy(a[0:n])
  for (int i = 1; i < n - 1; i++) {
    // CHECK: /* acc cache(a[i-1:3]): no-op, the data stays in device memory */
    #pragma acc cache(readonly: a[i-1:3])
    a[i] = a[i] * 2;
  }
}
