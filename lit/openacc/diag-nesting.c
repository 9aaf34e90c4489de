// Compute constructs, data constructs and executable data directives may not appear inside a
// compute construct: a front-end error in OpenACC terms (clang would word it on the OpenMP text).
// RUN: not %ptxcc -fopenacc -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:

void f(int n, double *a) {
  #pragma acc parallel copy(a[0:n])
  {
    // CHECK: diag-nesting.c:[[@LINE+1]]:17: error: '#pragma acc update' may not appear inside a compute construct ('#pragma acc parallel' of line [[@LINE-2]])
    #pragma acc update self(a[0:n])
    // CHECK: diag-nesting.c:[[@LINE+1]]:17: error: '#pragma acc data' may not appear inside a compute construct ('#pragma acc parallel' of line [[@LINE-4]])
    #pragma acc data copy(a[0:n])
    { a[0] = 1; }
    #pragma acc loop
    for (int i = 0; i < n; i++) {
      // CHECK: diag-nesting.c:[[@LINE+1]]:19: error: '#pragma acc enter data' may not appear inside a compute construct ('#pragma acc parallel' of line [[@LINE-9]])
      #pragma acc enter data copyin(a[i:1])
      #pragma acc atomic update
      a[0] += 1;
    }
  }
  #pragma acc kernels loop
  for (int i = 0; i < n; i++) {
    // CHECK: diag-nesting.c:[[@LINE+1]]:17: error: '#pragma acc parallel loop' may not appear inside a compute construct ('#pragma acc kernels loop' of line [[@LINE-2]])
    #pragma acc parallel loop
    for (int j = 0; j < n; j++) a[j] = i;
  }
}
