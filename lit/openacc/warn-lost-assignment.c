// A scalar a parallel (or serial) construct assigns, named by no clause, is firstprivate there
// (OpenACC 3.3, 2.6.2): the value is lost at the end of the construct. A warning at the
// assignment, with a note at the construct when it is a reduction pattern (the training labs'
// error = fmax(error, ...)). None in kernels (copy there), for loop variables, for variables
// declared inside, or when a clause (of the construct, an inner loop, an enclosing data
// construct) names the variable; -w silences it.
// RUN: %ptxcc -fopenacc -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=note:
// RUN: %ptxcc -fopenacc -fsyntax-only -w %s 2>&1 | count 0
#include <math.h>

double labs_error(int n, int m, double *restrict A, double *restrict Anew) {
  double error = 0.0;
  #pragma acc parallel loop copy(A[0:n], Anew[0:n])
  for (int j = 0; j < n; j++) {
    // CHECK: warn-lost-assignment.c:[[#@LINE+2]]:5: warning: 'error' is assigned in the parallel construct but is firstprivate there (OpenACC 3.3 2.6.2); its value is lost at the end of the construct: add reduction(max:error) or copy(error)
    // CHECK-NEXT: warn-lost-assignment.c:[[#@LINE-3]]:3: note: 'error = fmax(error, fabs(Anew[j] - A[j]))' is a max reduction of 'error': reduction(max:error) on this construct (or on its loop) combines the iterations' values into 'error' after it
    error = fmax(error, fabs(Anew[j] - A[j]));
  }
  return error;
}

double sums(int n, const double *restrict x) {
  double s = 0, t = 0, u = 0, v = 1, w = 0, k;
  int last = -1, i;
  #pragma acc parallel
  {
    #pragma acc loop
    for (i = 0; i < n; i++) {
      // CHECK: warn-lost-assignment.c:[[#@LINE+2]]:7: warning: 's' is assigned in the parallel construct but is firstprivate there (OpenACC 3.3 2.6.2); its value is lost at the end of the construct: add reduction(+:s) or copy(s)
      // CHECK-NEXT: warn-lost-assignment.c:[[#@LINE-5]]:3: note: 's += x[i]' is a sum (+) reduction of 's': reduction(+:s)
      s += x[i];
      // CHECK: warn-lost-assignment.c:[[#@LINE+1]]:7: warning: 'last' is assigned in the parallel construct {{.*}}: add copy(last), or a reduction clause if it combines the iterations' values
      last = i;
      double inner = x[i];  // declared inside: private
      inner += 1;
      // A sequential loop's variable: private by the loop, not lost data.
      for (k = 0; k < 2; k++)
        inner += k;
    }
  }
  // Named by clauses: no warning.
  #pragma acc parallel loop reduction(+:t) copy(v) firstprivate(w)
  for (int j = 0; j < n; j++) { t += x[j]; v = x[j]; w = j; }
  #pragma acc parallel
  {
    #pragma acc loop reduction(+:u) private(w)
    for (int j = 0; j < n; j++) { u += x[j]; w = x[j]; }
  }
  #pragma acc data copy(w)
  #pragma acc parallel loop
  for (int j = 0; j < n; j++) if (j == 0) w = x[0];
  // kernels: a scalar it writes is copy.
  #pragma acc kernels
  for (int j = 0; j < n; j++) if (j == n - 1) v = x[j];
  // serial: firstprivate too.
  #pragma acc serial
  // CHECK: warn-lost-assignment.c:[[#@LINE+2]]:33: warning: 'u' is assigned in the serial construct but is firstprivate there (OpenACC 3.3 2.6.2); its value is lost at the end of the construct: add reduction(*:u) or copy(u)
  // CHECK-NEXT: warn-lost-assignment.c:[[#@LINE-2]]:3: note: 'u = u * x[j]' is a product (*) reduction of 'u'
  for (int j = 0; j < n; j++) { u = u * x[j]; }
  return s + t + u + v + w + last;
}

// A loop temporary declared outside (C89 style, NPB CG's tmp1 = rowstr[j]): each iteration
// assigns it before using it, and the function never reads what a construct leaves in it (it
// only assigns it, or uses it in loops that assign it first): no warning. Read after the
// construct, or with its address taken, the warning stays (also where a write on every path
// comes before the read: the check does not follow the flow of control).
void csr(int rows, const int *restrict rowstr, const double *restrict a, double *restrict q,
         int *out) {
  int tmp1, tmp2, k, j, after, addr, *p = &addr;
  double sum;
  #pragma acc parallel copyin(rowstr[0:rows+1], a[0:rowstr[rows]]) copyout(q[0:rows])
  {
    #pragma acc loop gang
    for (j = 0; j < rows; j++) {
      tmp1 = rowstr[j];
      tmp2 = rowstr[j + 1];
      sum = 0.0;
      #pragma acc loop vector reduction(+:sum)
      for (k = tmp1; k < tmp2; k++)
        sum += a[k];
      q[j] = sum;
      // CHECK: warn-lost-assignment.c:[[#@LINE+1]]:7: warning: 'after' is assigned in the parallel construct {{.*}}: add copy(after)
      after = j;
      // CHECK: warn-lost-assignment.c:[[#@LINE+1]]:7: warning: 'addr' is assigned in the parallel construct {{.*}}: add copy(addr)
      addr = j;
    }
  }
  tmp1 = 0;
  for (j = 0; j < rows; j++) {
    tmp1 = rowstr[j];
    tmp2 = tmp1 + 1;
    out[j] = tmp2 + tmp1;
  }
  *out += after + *p;
}
