// Reduction operators that the variable's type does not allow.
// RUN: not %ptxcc -fopenacc -c %s -o /dev/null 2>&1 | FileCheck %s

struct P { int x; };
void f(int n, double d, float *a, struct P p) {
  // CHECK: diag-reduction-type.c:[[@LINE+1]]:41: error: reduction operator '&' is not allowed for variable 'd' of type 'double'
  #pragma acc parallel loop reduction(&:d)
  for (int i = 0; i < n; i++) d += 1;
  // CHECK: diag-reduction-type.c:[[@LINE+1]]:41: error: reduction operator '^' is not allowed for variable 'a' of type 'float *'
  #pragma acc parallel loop reduction(^:a)
  for (int i = 0; i < n; i++) a[i] = 0;
  // CHECK: diag-reduction-type.c:[[@LINE+1]]:43: error: reduction operator 'max' is not allowed for variable 'p' of type 'struct P'
  #pragma acc parallel loop reduction(max:p)
  for (int i = 0; i < n; i++) p.x = i;
}
