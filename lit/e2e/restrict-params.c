// restrict parameters reach the kernels (restrict-params) and the answers stay the serial
// ones: restrict pointers, each read and written; two pointers based on one restrict
// pointer (halves of one array: not noalias).
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: %run %t | FileCheck %s
// CHECK: scaled: ok
// CHECK: halves: ok
// CHECK: PASS
#include <stdio.h>
#include <stdlib.h>

static void scaled(long n, const double *restrict x, double *restrict y, double *restrict z) {
#pragma omp target teams distribute parallel for map(to : x[0:n]) map(tofrom : y[0:n], z[0:n])
  for (long i = 0; i < n; i++) {
    y[i] = 2 * x[i] + y[i];
    z[i] = y[i] + x[i] * z[i];
  }
}

static void halves(long n, double *restrict p) {
  double *a = p, *b = p + n / 2;
#pragma omp target teams distribute parallel for map(tofrom : p[0:n])
  for (long i = 0; i < n / 2; i++) {
    a[i] = a[i] + b[i];
    b[i] = a[i] * 2;
  }
}

int main(void) {
  long n = 10000;
  double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), *z = malloc(n * sizeof *z);
  double *p = malloc(n * sizeof *p);
  for (long i = 0; i < n; i++) {
    x[i] = i;
    y[i] = 1;
    z[i] = 2;
    p[i] = i % 7;
  }
  scaled(n, x, y, z);
  int bad = 0;
  for (long i = 0; i < n; i++)
    bad += y[i] != 2.0 * i + 1 || z[i] != 2.0 * i + 1 + 2.0 * i;
  printf("scaled: %s\n", bad ? "WRONG" : "ok");
  halves(n, p);
  int badh = 0;
  for (long i = 0; i < n / 2; i++) {
    double a = i % 7 + (i + n / 2) % 7;
    badh += p[i] != a || p[i + n / 2] != 2 * a;
  }
  printf("halves: %s\n", badh ? "WRONG" : "ok");
  printf("%s\n", bad || badh ? "FAIL" : "PASS");
  return bad || badh;
}
