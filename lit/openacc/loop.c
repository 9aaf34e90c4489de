// loop inside a parallel region: levels chosen from the clauses and the nesting.
// RUN: %ptxcc -fopenacc -fopenacc-print=omp %s | FileCheck %s
// RUN: %ptxcc -fopenacc -fptxcc-info -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=INFO
// INFO-DAG: loop.c:[[#@LINE+53]]: loop parallelized: worker(threadIdx.y: one warp each)
// INFO-DAG: loop.c:[[#@LINE+56]]: loop parallelized: vector(threadIdx.x: lanes of the worker's warp, 16)
// INFO-DAG: loop.c:[[#@LINE+67]]: vector length 128 is more than a warp: 32 lanes per worker

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

// A vector loop inside a worker loop: a parallel region nested in the worker's, on the lanes of
// its warp (num_threads from vector(n), else vector_length, else 32; at most 32), and the block
// is num_workers warps.
void g(int n, float *a, float *b) {
  // CHECK: #pragma omp target teams thread_limit((3) * 32)
  #pragma acc parallel num_workers(3) vector_length(16) present(a[0:n*n], b[0:n])
  {
    // CHECK: #pragma omp distribute{{$}}
    #pragma acc loop gang
    for (int i = 0; i < n; i++) {
      // CHECK: #pragma omp parallel for{{$}}
      #pragma acc loop worker
      for (int j = 0; j < n; j++) {
        float s = 0;
        // CHECK: #pragma omp parallel for num_threads(16) reduction(+: s)
        #pragma acc loop vector reduction(+: s)
        for (int k = 0; k < n; k++) s += a[j * n + k];
        // CHECK: #pragma omp parallel for num_threads(8)
        #pragma acc loop vector(8)
        for (int k = 0; k < n; k++) a[j * n + k] /= s;
      }
    }
  }
  // CHECK: #pragma omp target teams distribute parallel for num_teams(4){{.*}}
  // CHECK: #pragma omp parallel for num_threads(32){{$}}
  #pragma acc parallel loop gang worker num_gangs(4) vector_length(128) present(a[0:n*n])
  for (int i = 0; i < n; i++) {
    #pragma acc loop vector
    for (int j = 0; j < n; j++) a[i * n + j] += 1;
  }
}
