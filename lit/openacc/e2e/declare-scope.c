// declare in a function (OpenACC 3.3, 2.13): the data lives on the device from the directive to
// the end of its scope (the function or the block): copy, copyin, copyout, create, present and
// deviceptr; scalars and arrays; the scope left by return, break and continue (each ends the
// lifetime: copyout copies back, the next iteration gets fresh data); and file-scope declare
// create/copyin/device_resident globals that routine functions use.
// REQUIRES: libptxrt
// RUN: %ptxcc -fopenacc %s -o %t && %run %t | FileCheck %s
// CHECK: PASS
#include <openacc.h>
#include <stdio.h>
#include <stdlib.h>
#define N 100
static int bad;
static void expect(const char *what, double got, double want) {
  if (got != want && bad++ < 10) printf("%s: %g, want %g\n", what, got, want);
}

double coef[N];
#pragma acc declare copyin(coef)
double scratch[N];
#pragma acc declare create(scratch)
int table[N];
#pragma acc declare device_resident(table)

#pragma acc routine seq
static double use_globals(int i) {
  scratch[i] = coef[i] * 2;
  table[i] = i;
  return scratch[i] + table[i];
}

static double sum_copy(int n, double *x) {
  double s = 0;
  #pragma acc declare copy(s)
  #pragma acc parallel loop present(x[0:n]) reduction(+:s)
  for (int i = 0; i < n; i++) s += x[i];
  // The return value is computed inside the scope, before the copy back: update it first.
  #pragma acc update self(s)
  return s;
}

static void copy_section(int n, double *y) {
  #pragma acc declare copy(y[0:n])
  #pragma acc parallel loop
  for (int i = 0; i < n; i++) y[i] = y[i] * 2 + 1;
}

static void scalars_and_create(void) {
  int k = 3;
  double a[N];
  #pragma acc declare create(a) copyin(k)
  #pragma acc parallel loop
  for (int i = 0; i < N; i++) a[i] = i * k;
  #pragma acc update self(a)
  expect("create + copyin scalar", a[5], 15);
}

static void present_(double *x) {
  #pragma acc declare present(x[0:N])
  #pragma acc parallel loop
  for (int i = 0; i < N; i++) x[i] += 1;
}

static void deviceptr_(double *h) {
  double *d = acc_malloc(N * sizeof(double));
  #pragma acc declare deviceptr(d)
  #pragma acc parallel loop copyout(h[0:N])
  for (int i = 0; i < N; i++) { d[i] = i; h[i] = d[i] * 2; }
  acc_free(d);
}

static double copyout_block(void) {
  double h[N];
  {
    #pragma acc declare copyout(h)
    #pragma acc parallel loop
    for (int i = 0; i < N; i++) h[i] = 2 * i;
  }
  return h[7]; // copied out where the block ends
}

static int early_return(int stop) {
  int v[N];
  #pragma acc declare copyout(v)
  #pragma acc parallel loop
  for (int i = 0; i < N; i++) v[i] = i + 1;
  // The value is computed while v is still on the device, then the scope ends.
  if (stop)
    return acc_is_present(v, sizeof v);
  return acc_is_present(v, sizeof v) + 1;
}

static void break_continue(double *out) {
  for (int k = 0; k < 4; k++) {
    double loc[N];
    // The previous iteration's loc (most likely the same address) left the device.
    expect("loc absent before its declare", acc_is_present(loc, sizeof loc), 0);
    #pragma acc declare copyout(loc)
    #pragma acc parallel loop
    for (int i = 0; i < N; i++) loc[i] = k * 10 + i;
    if (k == 1) continue;
    if (k == 3) break;
    out[k] = loc[0]; // not yet copied out: the host value of this iteration
  }
}

int main(void) {
  double *x = malloc(N * sizeof(double)), *h = malloc(N * sizeof(double));
  for (int i = 0; i < N; i++) { x[i] = i; coef[i] = i; }
  #pragma acc update device(coef)
  double r[N];
  #pragma acc parallel loop copyout(r)
  for (int i = 0; i < N; i++) r[i] = use_globals(i);
  for (int i = 0; i < N; i++) expect("routine on declare globals", r[i], 3.0 * i);
  #pragma acc update self(scratch)
  expect("declare create global", scratch[9], 18);

  scalars_and_create();
  #pragma acc data copy(x[0:N])
  {
    present_(x);
    expect("declare copy scalar", sum_copy(N, x), N * (N - 1) / 2 + N);
  }
  expect("declare present", x[3], 4);
  deviceptr_(h);
  expect("declare deviceptr", h[9], 18);
  expect("declare copyout in a block", copyout_block(), 14);
  expect("return inside the scope", early_return(1), 1);
  expect("the second return", early_return(0), 2);
  int v_absent = 1;
  for (int i = 0; i < 2; i++) v_absent &= early_return(i) > 0;
  expect("return values", v_absent, 1);
  double y[N];
  for (int i = 0; i < N; i++) y[i] = i;
  copy_section(N, y);
  expect("declare copy of a section, copied back", y[10], 21);
  double out[4] = {-1, -1, -1, -1};
  break_continue(out);
  printf(bad ? "FAIL\n" : "PASS\n");
  return bad != 0;
}
