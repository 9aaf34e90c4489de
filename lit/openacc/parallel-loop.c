// parallel loop: target teams + the loop's levels (gang -> distribute, worker/vector -> parallel
// for, worker and vector on one loop -> parallel for simd).
// RUN: %ptxcc -fopenacc -fopenacc-print=omp %s | FileCheck %s

void f(int n, float *restrict a, const float *restrict b) {
  // CHECK: #pragma omp target teams distribute parallel for map(ompx_hold, to: b[0:n]) map(ompx_hold, tofrom: a[0:n])
  #pragma acc parallel loop copyin(b[0:n]) copy(a[0:n])
  for (int i = 0; i < n; i++) a[i] += b[i];
  // CHECK: #pragma omp target teams distribute parallel for thread_limit(128)
  #pragma acc parallel loop gang vector vector_length(128)
  for (int i = 0; i < n; i++) a[i] = 0;
  // CHECK: #pragma omp target teams distribute{{$}}
  #pragma acc parallel loop gang
  for (int i = 0; i < n; i++) a[i] = 0;
  // CHECK: #pragma omp target teams distribute parallel for simd thread_limit(4) dist_schedule(static, 8)
  #pragma acc parallel loop gang(static:8) worker vector num_workers(4)
  for (int i = 0; i < n; i++) a[i] = 0;
  // CHECK: #pragma omp target teams distribute num_teams(16) dist_schedule(static)
  #pragma acc parallel loop gang(num:16, static:*)
  for (int i = 0; i < n; i++) a[i] = 0;
  // seq: one thread runs the loop.
  // CHECK: #pragma omp target{{$}}
  #pragma acc parallel loop seq
  for (int i = 1; i < n; i++) a[i] = a[i - 1];
  // CHECK: #pragma omp target teams distribute parallel for collapse(2)
  #pragma acc parallel loop collapse(2)
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) a[i * n + j] = 0;
  // tile(…) tiles a nest whose loops are independent: collapsed here.
  // CHECK: #pragma omp target teams distribute parallel for collapse(2)
  #pragma acc parallel loop tile(8, 8)
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) a[i * n + j] = 0;
  // A counter of an inner loop declared outside gets private to each thread.
  int j;
  // CHECK: #pragma omp target teams distribute parallel for private(j)
  #pragma acc parallel loop
  for (int i = 0; i < n; i++)
    for (j = 0; j < n; j++) a[i * n + j] = 1;
}
