// Malformed array sections.
// RUN: not %ptxcc -fopenacc -c %s -o /dev/null 2>&1 | FileCheck %s

void f(int n, float *a, float *b) {
  // CHECK: diag-section.c:[[@LINE+1]]:26: error: malformed array section '[0:n)': expected ']'
  #pragma acc data copy(a[0:n)
  { }
  // CHECK: diag-section.c:[[@LINE+1]]:34: error: malformed array section '[0:n:': a section is [lower:length]
  #pragma acc enter data copyin(a[0:n:2])
  // CHECK: diag-section.c:[[@LINE+1]]:30: error: expected a variable name, found '3'
  #pragma acc data copyin(a, 3)
  { }
}
