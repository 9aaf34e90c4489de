// Directives that must be followed by a particular statement.
// RUN: not %ptxcc -fopenacc -c %s -o /dev/null 2>&1 | FileCheck %s

void f(int n, float *a) {
  #pragma acc parallel
  {
    // CHECK: diag-structure.c:[[@LINE+1]]:17: error: '#pragma acc loop' must be followed by a 'for' loop
    #pragma acc loop
    while (n--) a[n] = 0;
  }
}
// CHECK: diag-structure.c:[[@LINE+1]]:13: error: '#pragma acc routine' must be followed by a function, not 'x'
#pragma acc routine seq
int x;
