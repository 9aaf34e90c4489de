// loop inside a parallel region: levels chosen from the clauses and the nesting.
// RUN: %ptxcc -fopenacc -fopenacc-print=omp %s | FileCheck %s

void f(int n, float *a, float *b) {
  float s = 0;
  // CHECK: #pragma omp target teams {{.*}}reduction(+: s)
  #pragma acc parallel present(a[0:n*n], b[0:n])
  {
    // CHECK: #pragma omp distribute{{$}}
    #pragma acc loop gang
    for (int i = 0; i < n; i++) {
      // CHECK: #pragma omp parallel for reduction(+: s)
      #pragma acc loop vector reduction(+:s)
      for (int j = 0; j < n; j++) s += a[i * n + j];
    }
    // CHECK: #pragma omp distribute{{$}}
    #pragma acc loop
    for (int i = 0; i < n; i++) {
      // CHECK: #pragma omp parallel for{{$}}
      #pragma acc loop worker
      for (int j = 0; j < n; j++) {
        // CHECK: /* acc loop seq: sequential (seq clause) */
        #pragma acc loop seq
        for (int k = 1; k < n; k++) a[i * n + k] += a[i * n + k - 1];
      }
    }
    // auto: the dependence test decides.
    // CHECK: #pragma omp distribute parallel for{{$}}
    #pragma acc loop auto
    for (int i = 0; i < n; i++) b[i] = 2 * b[i];
    // CHECK: /* acc loop auto: sequential (loop-carried dependence on b) */
    #pragma acc loop auto
    for (int i = 1; i < n; i++) b[i] = b[i - 1];
    // CHECK: #pragma omp distribute parallel for private(t)
    float t;
    #pragma acc loop independent private(t)
    for (int i = 0; i < n; i++) { t = b[i]; b[i] = t * t; }
  }
}
