// kernels: the levels written on a loop nest (gang / worker / vector) are honoured as in a
// parallel region, and num_gangs / num_workers / vector_length size each kernel.
// RUN: %ptxcc -fopenacc -fopenacc-print=omp %s | FileCheck %s
// RUN: %ptxcc -fopenacc -fptxcc-info -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=INFO

void f(int n, int m, float *restrict a, const float *restrict b, float *restrict r) {
#pragma acc kernels copyin(b[0:n*m]) copyout(a[0:n*m], r[0:n]) num_workers(4) vector_length(16)
  {
    // A vector loop under a gang worker loop: the lanes of the worker's warp, num_workers warps.
    // CHECK: #pragma omp target teams distribute parallel for thread_limit((4) * 32)
    // CHECK-NEXT: for (int i
    // CHECK: #pragma omp parallel for num_threads(16) reduction(+: s)
    // INFO-DAG: kernels-levels.c:[[@LINE+2]]: loop parallelized: gang(blockIdx.x) worker(threadIdx.y: one warp each)
#pragma acc loop gang worker
    for (int i = 0; i < n; i++) {
      float s = 0;
      // INFO-DAG: kernels-levels.c:[[@LINE+2]]: loop parallelized: vector(threadIdx.x: lanes of the worker's warp, 16)
#pragma acc loop vector reduction(+:s)
      for (int j = 0; j < m; j++) s += b[i * m + j];
      r[i] = s;
    }
    // Three levels on three loops; the vector loop's own length wins over vector_length.
    // CHECK: #pragma omp target teams distribute thread_limit((4) * 32)
    // CHECK: #pragma omp parallel for{{$}}
    // CHECK: #pragma omp parallel for num_threads(8){{$}}
    // INFO-DAG: kernels-levels.c:[[@LINE+2]]: loop parallelized: gang(blockIdx.x){{$}}
#pragma acc loop gang
    for (int i = 0; i < n; i++)
    // INFO-DAG: kernels-levels.c:[[@LINE+2]]: loop parallelized: worker(threadIdx.y: one warp each)
#pragma acc loop worker
      for (int j = 0; j < m; j++)
#pragma acc loop vector(8)
        for (int k = 0; k < 4; k++) a[i * m + j] += k;
    // Gang over vector: the vector length sizes the block; a loop inside without a level runs
    // sequentially in its thread (a second vector loop there is an error: diag-levels.c).
    // CHECK: #pragma omp target teams distribute thread_limit(16)
    // CHECK: #pragma omp parallel for{{$}}
    // CHECK: /* acc loop: sequential inside the parallel loop */
    // INFO-DAG: kernels-levels.c:[[@LINE+4]]: loop parallelized: vector(threadIdx.x, 16)
#pragma acc loop gang
    for (int i = 0; i < n; i++)
#pragma acc loop vector
      for (int j = 0; j < m; j++)
#pragma acc loop
        for (int k = 0; k < 4; k++) a[i * m + j] += k;
  }
  // Perfectly nested loops without written inner levels collapse; the gangs come from num_gangs.
  // CHECK: #pragma omp target teams distribute parallel for map(ompx_hold, tofrom: a[0:n*m]) collapse(2) num_teams(64) thread_limit(128)
  // CHECK: /* acc loop: in the collapse(2) of the parallel loop */
  // INFO-DAG: kernels-levels.c:[[@LINE+2]]: loop parallelized: gang(blockIdx.x) vector(threadIdx.x, 128) collapse(2)
#pragma acc kernels loop num_gangs(64) vector_length(128) copy(a[0:n*m])
  for (int i = 0; i < n; i++)
#pragma acc loop
    for (int j = 0; j < m; j++) a[i * m + j] *= 2;
  // gang(num:) on the loop wins over num_gangs; workers without vector loops are the threads.
  // CHECK: #pragma omp target teams distribute parallel for map(ompx_hold, tofrom: a[0:n*m]) num_teams(8) thread_limit(64)
  // INFO-DAG: kernels-levels.c:[[@LINE+2]]: loop parallelized: gang(blockIdx.x) worker(threadIdx.x, 64)
#pragma acc kernels loop gang(num:8) worker num_gangs(2) num_workers(64) copy(a[0:n*m])
  for (int i = 0; i < n * m; i++) a[i] += 1;
}
