// The parallel construct: target teams, with its gang/worker/vector sizes and data-sharing clauses.
// RUN: %ptxcc -fopenacc -fopenacc-print=omp %s | FileCheck %s

void f(int n, float *a, float s) {
  float t = 0, u = 1;
  // CHECK: #pragma omp target teams num_teams(32) thread_limit(128) map(ompx_hold, tofrom: a[0:n]) private(t) firstprivate(u) reduction(+: s)
  #pragma acc parallel num_gangs(32) vector_length(128) copy(a[0:n]) private(t) firstprivate(u) reduction(+:s)
  {
    // CHECK: #pragma omp distribute parallel for
    #pragma acc loop
    for (int i = 0; i < n; i++) a[i] += u;
  }
  // CHECK: #pragma omp target teams num_teams(1) if(target: (n > 100) && !(n < 10))
  #pragma acc parallel if(n > 100) self(n < 10)
  { a[0] = 1; }
  // CHECK: #pragma omp target teams num_teams(1) if(target: !(1))
  #pragma acc parallel self
  { a[0] = 1; }
}
