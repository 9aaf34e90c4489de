// Diagnostics in pragmas that use macros still point at the offending text as written.
// RUN: not %ptxcc -fopenacc -c %s -o /dev/null 2>&1 | FileCheck %s

#define N 10
void f(float *a) {
  // CHECK: diag-macro.c:[[@LINE+1]]:42: error: unknown OpenACC clause 'bogus'
  #pragma acc parallel loop copy(a[0:N]) bogus
  for (int i = 0; i < N; i++) a[i] = 0;
}
