// An `auto` loop with `reduction(+: sum)` written and `s`, `t` found by the dependence test:
// every one is reduced (a name `s` inside `sum` once lost its reduction clause and the program
// printed s=0), and the results equal the serial ones.
// REQUIRES: libptxrt
// RUN: %ptxcc -fopenacc %s -o %t && %run %t | FileCheck %s
// CHECK: sum=499500 s=999000 t=332833500
// CHECK: PASS
#include <stdio.h>
#define N 1000
int main(void) {
  double a[N];
  for (int i = 0; i < N; i++) a[i] = i;
  double sum = 0, s = 0, t = 0;
  #pragma acc parallel loop auto reduction(+ : sum) copyin(a)
  for (int i = 0; i < N; i++) {
    sum += a[i];
    s += 2 * a[i];
    t += a[i] * a[i];
  }
  double es = 0, ess = 0, et = 0;
  for (int i = 0; i < N; i++) { es += a[i]; ess += 2 * a[i]; et += a[i] * a[i]; }
  printf("sum=%.0f s=%.0f t=%.0f\n", sum, s, t);
  printf("%s\n", sum == es && s == ess && t == et ? "PASS" : "FAIL");
  return 0;
}
