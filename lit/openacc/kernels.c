// kernels: one target data for the region, one target per loop nest; parallel where the loop is
// independent or the dependence test proves it, one device thread otherwise.
// RUN: %ptxcc -fopenacc -fopenacc-print=omp %s | FileCheck %s

#define N 1000
void f(int n, float *a, float *b) {
  float c[N];
  float sum = 0;
  // CHECK: #pragma omp target data map(ompx_hold, to: a[0:n]) map(ompx_hold, from: b[0:n]) map(ompx_hold, tofrom: c) map(tofrom: sum)
  #pragma acc kernels copyin(a[0:n]) copyout(b[0:n])
  {
    // CHECK: #pragma omp target teams distribute parallel for{{$}}
    // CHECK-NEXT: # [[@LINE+1]] "{{.*}}kernels.c"
    for (int i = 0; i < n; i++) b[i] = a[i] * 2;
    // CHECK: #pragma omp target{{$}}
    for (int i = 1; i < n; i++) b[i] = b[i - 1] + a[i];
    // CHECK: #pragma omp target teams distribute parallel for{{$}}
    for (int i = 0; i < N; i++) c[i] = a[i % n];
    // CHECK: #pragma omp target teams distribute parallel for map(tofrom: sum) reduction(+: sum)
    for (int i = 0; i < n; i++) sum += a[i];
    // CHECK: #pragma omp target teams distribute parallel for collapse(2)
    for (int i = 0; i < 10; i++)
      for (int j = 0; j < 10; j++) c[i * 10 + j] = 1;
    // CHECK: #pragma omp target teams distribute parallel for{{$}}
    #pragma acc loop independent
    for (int i = 0; i < n; i++) b[a[i] > 0 ? i : 0] = 1;
    // Statements between loops run on one device thread.
    // CHECK: #pragma omp target map(tofrom: sum)
    // CHECK: {sum = sum * 2;}
    sum = sum * 2;
  }
}

void jacobi(int n, float *restrict u, float *restrict un) {
  #pragma acc kernels copy(u[0:n]) create(un[0:n])
  // CHECK: for (int it = 0; it < 10; it++) {
  // CHECK-NEXT: #pragma omp target teams distribute parallel for{{$}}
  // CHECK: #pragma omp target teams distribute parallel for{{$}}
  for (int it = 0; it < 10; it++) {
    for (int i = 1; i < n - 1; i++) un[i] = 0.5f * (u[i - 1] + u[i + 1]);
    for (int i = 1; i < n - 1; i++) u[i] = un[i];
  }
}
