// Unknown directives and clauses.
// RUN: not %ptxcc -fopenacc -c %s -o /dev/null 2>&1 | FileCheck %s

void f(int n, float *a) {
  // CHECK: diag-unknown.c:[[@LINE+1]]:15: error: unknown OpenACC directive 'paralel'
  #pragma acc paralel loop
  for (int i = 0; i < n; i++) a[i] = 0;
  // CHECK: diag-unknown.c:[[@LINE+1]]:42: error: unknown OpenACC clause 'gangg'
  #pragma acc parallel loop copy(a[0:n]) gangg
  for (int i = 0; i < n; i++) a[i] = 0;
  // CHECK: diag-unknown.c:[[@LINE+1]]:15: error: unknown OpenACC directive 'enter copyin'
  #pragma acc enter copyin(a[0:n])
  // CHECK: diag-unknown.c:[[@LINE+2]]:38: error: unknown OpenACC clause 'bogus'
  #pragma acc parallel loop copy(a[0:n]) \
      num_gangs(4) vector_length(32) bogus(3)
  for (int i = 0; i < n; i++) a[i] = 0;
  // CHECK: diag-unknown.c:[[@LINE+1]]:39: error: unknown reduction operator '-=' (expected +, *, max, min, &, |, ^, && or ||)
  #pragma acc parallel loop reduction(-=:n)
  for (int i = 0; i < n; i++) n += 1;
}
