// Pragmas stay on their line; inserted lines are followed by a line marker, so clang's
// diagnostics on the translated text point at the user's source.
// RUN: not %ptxcc -fopenacc -c %s -o /dev/null 2>&1 | FileCheck %s

void f(int n, float *a) {
  #pragma acc kernels copy(a[0:n])
  {
    for (int i = 0; i < n; i++) a[i] = 0;
    for (int i = 0; i < n; i++) a[i] += undeclared_here;
    // CHECK: line-numbers.c:[[@LINE-1]]:41: error: use of undeclared identifier 'undeclared_here'
  }
}
