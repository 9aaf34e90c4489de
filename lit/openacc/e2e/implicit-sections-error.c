// A pointer whose accesses are not affine in the loop's iteration (x[idx[i]]) and that no
// data clause names: ptxcc cannot infer its section, and the launch stops with an error that
// names the pointer, the construct's line and the data clause to write. The serial construct
// (one thread, not a loop ptxcc tables) stops with the not-present error, which asks for a data
// clause too. With data clauses, both run.
// REQUIRES: libptxrt
// RUN: %ptxcc -fopenacc %s -o %t && not %run %t 2>&1 | FileCheck %s
// RUN: %ptxcc -fopenacc -DSERIAL %s -o %t.s && not %run %t.s 2>&1 | FileCheck --check-prefix=SERIAL %s
// RUN: %ptxcc -fopenacc -DCLAUSES %s -o %t.c && %run %t.c | FileCheck --check-prefix=OK %s
// default(present) asks for present data: no section is inferred, absent data stays an error.
// RUN: %ptxcc -fopenacc -DDEFAULT_PRESENT %s -o %t.p && not %run %t.p 2>&1 | FileCheck --check-prefix=PRESENT %s
// PRESENT: variable 'z[0:0]' {{.*}} is not present on device 0
// CHECK: implicit-sections-error.c:[[#@LINE+11]]:1: pointer 'x' is used in the OpenACC compute construct without a data clause and its data is not present on device 0
// CHECK-SAME: cannot tell which elements the loop reaches (an access that is not affine
// CHECK-SAME: give it a data clause, e.g. copy(x[0:n])
// SERIAL: implicit-sections-error.c:[[#@LINE+18]]:1: pointer 'y' (host {{.*}}) is used in the target region but the data it points to is not present (not mapped) on device 0
// SERIAL: note: OpenACC: give it a data clause, e.g. copy(y[0:n])
// OK: PASS
#include <stdio.h>
#include <stdlib.h>

static void scatter(int n, double *x, const int *idx) {
#ifndef CLAUSES
#pragma acc parallel loop
#else
#pragma acc parallel loop copy(x[0:n]) copyin(idx[0:n])
#endif
  for (int i = 0; i < n; i++)
    x[idx[i]] = i;
}

static void fill(int n, double *y) {
#ifndef CLAUSES
#pragma acc serial
#else
#pragma acc serial copyout(y[0:n])
#endif
  for (int i = 0; i < n; i++)
    y[i] = 2 * i;
}

static void zero(int n, double *z) {
#pragma acc parallel loop default(present)
  for (int i = 0; i < n; i++)
    z[i] = 0;
}

int main(void) {
  int n = 100;
  double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
  int *idx = malloc(n * sizeof *idx);
  for (int i = 0; i < n; i++)
    idx[i] = n - 1 - i;
#ifdef DEFAULT_PRESENT
  zero(n, x);
#endif
#ifdef SERIAL
  fill(n, y);
#else
  scatter(n, x, idx);
  fill(n, y);
#endif
  int bad = 0;
  for (int i = 0; i < n; i++)
    bad += x[n - 1 - i] != i || y[i] != 2 * i;
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
