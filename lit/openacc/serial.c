// serial: one gang, one worker, one vector lane -> a plain target region.
// RUN: %ptxcc -fopenacc -fopenacc-print=omp %s | FileCheck %s

void f(int n, float *a, float *s) {
  // CHECK: #pragma omp target map(ompx_hold, tofrom: a[0:n])
  #pragma acc serial copy(a[0:n])
  {
    // CHECK: /* acc loop gang: sequential (serial region: one thread) */
    #pragma acc loop gang
    for (int i = 1; i < n; i++) a[i] += a[i - 1];
  }
  float sum = 0;
  // CHECK: #pragma omp target map(ompx_hold, present, alloc: a[0:n]) map(tofrom: sum)
  #pragma acc serial loop present(a[0:n]) reduction(+:sum)
  for (int i = 0; i < n; i++) sum += a[i];
  *s = sum;
}
