// atomic: read, write, update, capture in each form, with the same OpenMP forms.
// RUN: %ptxcc -fopenacc -fopenacc-print=omp %s | FileCheck %s

void f(int n, int *h, int *x) {
  int v;
  #pragma acc parallel loop copy(h[0:10], x[0:1]) private(v)
  for (int i = 0; i < n; i++) {
    // CHECK: #pragma omp atomic update
    #pragma acc atomic
    h[i % 10]++;
    // CHECK: #pragma omp atomic update
    #pragma acc atomic update
    h[i % 10] = h[i % 10] + 2;
    // CHECK: #pragma omp atomic read
    #pragma acc atomic read
    v = x[0];
    // CHECK: #pragma omp atomic write
    #pragma acc atomic write
    x[0] = v + 1;
    // CHECK: #pragma omp atomic capture
    #pragma acc atomic capture
    v = x[0]++;
    // CHECK: #pragma omp atomic capture
    #pragma acc atomic capture
    { v = x[0]; x[0] *= 2; }
    // CHECK: #pragma omp atomic update
    #pragma acc atomic update if(n > 0)
    x[0] += 1;
  }
}
