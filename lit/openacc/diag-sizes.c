// Sizes written as constants must be positive: num_gangs, num_workers, vector_length, the
// gang/worker/vector arguments, gang(static:) and tile sizes (clang would word the error on the
// OpenMP text, or, for num_workers(0) and tile(0), say nothing).
// RUN: not %ptxcc -fopenacc -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:

void f(int n, double *a) {
  // CHECK: diag-sizes.c:[[@LINE+1]]:46: error: the number of workers must be positive, found '0'
  #pragma acc parallel loop gang num_workers(0) copy(a[0:n])
  for (int i = 0; i < n; i++) a[i] = i;
  // CHECK: diag-sizes.c:[[@LINE+1]]:37: error: the number of gangs must be positive, found '-2'
  #pragma acc parallel num_gangs(4, -2)
  {
  }
  // CHECK: diag-sizes.c:[[@LINE+1]]:34: error: a tile size must be positive, found '0'
  #pragma acc parallel loop tile(0, *) copy(a[0:n])
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) a[i] += j;
  // CHECK: diag-sizes.c:[[@LINE+1]]:41: error: the gang chunk size must be positive, found '-1'
  #pragma acc parallel loop gang(static:-1) vector(8) copy(a[0:n])
  for (int i = 0; i < n; i++) a[i] = i;
  #pragma acc kernels copy(a[0:n])
  {
    // CHECK: diag-sizes.c:[[@LINE+1]]:37: error: the vector length must be positive, found '0'
    #pragma acc loop gang(4) vector(0)
    for (int i = 0; i < n; i++) a[i] = i;
  }
  // Variables and '*' are fine.
  #pragma acc parallel loop gang(static:*) vector_length(n) tile(*, 4) copy(a[0:n])
  for (int i = 0; i < n; i++)
    for (int j = 0; j < 4; j++) a[i] += j;
}
