// An array section in private/firstprivate: ptxcc does not support it (OpenMP's clauses take
// variables), said in OpenACC terms rather than by clang on the OpenMP text.
// RUN: not %ptxcc -fopenacc -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:

void f(int n, double *a, double *t) {
  // CHECK: diag-private-section.c:[[@LINE+1]]:37: error: ptxcc does not support an array section in 'private' ('t[0:4]'); make a local array in the loop body, or name a whole array variable
  #pragma acc parallel loop private(t[0:4]) copy(a[0:n])
  for (int i = 0; i < n; i++) { t[0] = i; a[i] = t[0]; }
  // CHECK: diag-private-section.c:[[@LINE+1]]:37: error: ptxcc does not support an array section in 'firstprivate' ('t[0:n]')
  #pragma acc parallel firstprivate(t[0:n]) copy(a[0:n])
  {
    #pragma acc loop
    for (int i = 0; i < n; i++) a[i] = t[i];
  }
}
