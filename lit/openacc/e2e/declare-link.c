// declare link: the variable has device memory only where a data clause maps it (no copy for
// the whole program); compute constructs then use the mapped copy, scalars included; a declare
// link in a function allocates nothing either. (Device functions that use a link variable are
// an error: lit/openacc/declare-link.c.)
// REQUIRES: libptxrt
// RUN: %ptxcc -fopenacc %s -o %t && %run %t | FileCheck %s
// CHECK: PASS
#include <stdio.h>
#include <openacc.h>
#define N 256
double big[N];
int count;
#pragma acc declare link(big, count)
float coef;
#pragma acc declare create(coef)
extern double other[N];

static int local_link(void) {
  int bad = 0;
  #pragma acc declare link(other)
  if (acc_is_present(other, sizeof other)) { printf("local link: allocated at the directive\n"); bad++; }
  for (int i = 0; i < N; i++) other[i] = i;
  #pragma acc parallel loop copy(other)
  for (int i = 0; i < N; i++) other[i] *= 3;
  for (int i = 0; i < N; i++) if (other[i] != 3.0 * i) { printf("local link: other[%d] = %g\n", i, other[i]); bad++; break; }
  return bad;
}

int main(void) {
  int bad = 0;
  if (acc_is_present(big, sizeof big) || acc_is_present(&count, sizeof count)) {
    printf("link: on the device before any data clause\n");
    bad++;
  }
  for (int i = 0; i < N; i++) big[i] = i;
  count = 1;
  #pragma acc data copy(big, count)
  {
    if (!acc_is_present(big, sizeof big)) { printf("link: not present in the data region\n"); bad++; }
    #pragma acc parallel loop
    for (int i = 0; i < N; i++) big[i] = 2 * big[i] + 1;
    // The device copy of the scalar, not a firstprivate one.
    #pragma acc parallel num_gangs(1)
    { count = count + 41; }
    #pragma acc kernels
    { count = count * 2; }
    if (count != 1) { printf("link: the host copy of count changed early (%d)\n", count); bad++; }
  }
  if (acc_is_present(big, sizeof big)) { printf("link: still present after the data region\n"); bad++; }
  for (int i = 0; i < N; i++) if (big[i] != 2.0 * i + 1) { printf("link: big[%d] = %g\n", i, big[i]); bad++; break; }
  if (count != 84) { printf("link: count = %d, want 84\n", count); bad++; }
  // A declare create global written in a kernels region: the device copy; the host sees it
  // after update self.
  coef = 1;
  #pragma acc update device(coef)
  #pragma acc kernels
  { coef = coef + 2; }
  if (coef != 1) { printf("declare create: host copy changed early (%g)\n", coef); bad++; }
  #pragma acc update self(coef)
  if (coef != 3) { printf("declare create: coef = %g, want 3\n", coef); bad++; }
  bad += local_link();
  printf("%s %d\n", bad ? "FAIL" : "PASS", bad);
  return bad != 0;
}
double other[N];
