// kernels loop: one loop nest, parallel when independent.
// RUN: %ptxcc -fopenacc -fopenacc-print=omp %s | FileCheck %s

void f(int n, float *a, float *b) {
  // CHECK: #pragma omp target teams distribute parallel for map(ompx_hold, to: b[0:n]) map(ompx_hold, from: a[0:n])
  #pragma acc kernels loop copyin(b[0:n]) copyout(a[0:n])
  for (int i = 0; i < n; i++) a[i] = b[i] + 1;
  // CHECK: #pragma omp target map(ompx_hold, tofrom: a[0:n])
  #pragma acc kernels loop copy(a[0:n])
  for (int i = 1; i < n; i++) a[i] = a[i - 1] + 1;
  // CHECK: #pragma omp target teams distribute parallel for map(ompx_hold, tofrom: a[0:n])
  #pragma acc kernels loop independent copy(a[0:n])
  for (int i = 1; i < n; i++) a[i] = a[i - 1] + 1;
}
