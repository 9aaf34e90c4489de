// The offload passes' errors on a construct an OpenACC pragma became point at the user's
// pragma, not at the column of the OpenMP text (their line tables are clang's, on that text).
// RUN: not %ptxcc -fopenacc -c %s -o /dev/null 2>&1 | FileCheck %s
void f(double *a, int n) {
  // CHECK: diag-passes-columns.c:[[@LINE+1]]:3: error: ptxcc does not support a variable-length array of the teams code shared with its parallel loop
  #pragma acc parallel copy(a[0:n])
  {
    double tmp[n];
    #pragma acc loop gang vector
    for (int i = 0; i < n; i++) tmp[i] = a[i];
    #pragma acc loop gang vector
    for (int i = 0; i < n; i++) a[i] = tmp[n - 1 - i];
  }
}
