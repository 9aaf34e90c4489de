// Clauses the OpenACC 3.3 tables do not allow on the directive.
// RUN: not %ptxcc -fopenacc -c %s -o /dev/null 2>&1 | FileCheck %s

void f(int n, float *a) {
  float s = 0;
  // CHECK: diag-not-allowed.c:[[@LINE+1]]:23: error: clause 'gang' is not allowed on '#pragma acc kernels'
  #pragma acc kernels gang
  { a[0] = 0; }
  // CHECK: diag-not-allowed.c:[[@LINE+1]]:22: error: clause 'num_gangs' is not allowed on '#pragma acc serial'
  #pragma acc serial num_gangs(2)
  { a[0] = 0; }
  // CHECK: diag-not-allowed.c:[[@LINE+1]]:36: error: clause 'reduction' is not allowed on '#pragma acc kernels'
  #pragma acc kernels copy(a[0:n]) reduction(+:s)
  { a[0] = 0; }
  // CHECK: diag-not-allowed.c:[[@LINE+1]]:36: error: clause 'copy' is not allowed on '#pragma acc enter data'
  #pragma acc enter data copyin(a) copy(a)
    #pragma acc parallel
  {
  // CHECK: diag-not-allowed.c:[[@LINE+1]]:40: error: clause 'num_gangs' is not allowed on '#pragma acc loop'
  #pragma acc loop device_type(nvidia) num_gangs(2)
  for (int i = 0; i < n; i++) a[i] = 0;
  }
  // CHECK: diag-not-allowed.c:[[@LINE+1]]:33: error: clause 'gang' cannot be combined with 'seq'
  #pragma acc parallel loop seq gang
  for (int i = 0; i < n; i++) a[i] = 0;
  // CHECK: diag-not-allowed.c:[[@LINE+1]]:41: error: clause 'collapse' appears more than once on '#pragma acc parallel loop'
  #pragma acc parallel loop collapse(1) collapse(2)
  for (int i = 0; i < n; i++) a[i] = 0;
  // CHECK: diag-not-allowed.c:[[@LINE+1]]:15: error: '#pragma acc update' requires a 'self', 'host' or 'device' clause
  #pragma acc update if(n)
  // CHECK: diag-not-allowed.c:[[@LINE+1]]:33: error: modifier 'zero' is not allowed on clause 'copyin'
  #pragma acc enter data copyin(zero: a[0:n])
}
