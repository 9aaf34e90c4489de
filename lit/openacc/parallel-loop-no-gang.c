// A combined parallel loop with worker or vector but no gang level: the gangs run it
// redundantly (one gang unless num_gangs), each spreading it over its threads: 'target teams'
// then the loop's own 'parallel for' (OpenMP has no 'target teams parallel for': clang would
// keep 'target teams' alone and every thread would run every iteration).
// RUN: %ptxcc -fopenacc -fopenacc-print=omp %s | FileCheck %s

void f(int n, double *restrict a, double *s) {
  // CHECK: #pragma omp target teams num_teams(1) thread_limit(64) map(ompx_hold, tofrom: a[0:n]){{$}}
  // CHECK-NEXT: # {{[0-9]+}} "{{.*}}parallel-loop-no-gang.c"
  // CHECK-NEXT: #pragma omp parallel for{{$}}
  #pragma acc parallel loop vector vector_length(64) copy(a[0:n])
  for (int i = 0; i < n; i++) a[i] += 1;
  // Each of the 4 gangs sums every element: the teams' reduction makes it 4 times the sum.
  // CHECK: #pragma omp target teams num_teams(4) map(ompx_hold, to: a[0:n]) reduction(+: t)
  // CHECK-NEXT: # {{[0-9]+}} "{{.*}}parallel-loop-no-gang.c"
  // CHECK-NEXT: #pragma omp parallel for num_threads(32) reduction(+: t)
  double t = 0;
  #pragma acc parallel loop vector(32) num_gangs(4) copyin(a[0:n]) reduction(+:t)
  for (int i = 0; i < n; i++) t += a[i];
  *s = t;
  // CHECK: #pragma omp target teams num_teams(1) thread_limit(8) map(ompx_hold, tofrom: a[0:n])
  // CHECK-NEXT: # {{[0-9]+}} "{{.*}}parallel-loop-no-gang.c"
  // CHECK-NEXT: #pragma omp parallel for simd collapse(2)
  #pragma acc parallel loop worker vector num_workers(8) collapse(2) copy(a[0:n])
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < n / 4; j++) a[i * (n / 4) + j] *= 2;
}
