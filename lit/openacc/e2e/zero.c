// The zero modifier: create(zero:)/copyout(zero:) device copies start as zeros, on data,
// compute, kernels and enter data; data already present is left alone.
// REQUIRES: libptxrt
// RUN: %ptxcc -fopenacc %s -o %t && %run %t | FileCheck %s
// CHECK: PASS
#include <stdio.h>
int main(void) {
  int n = 1000, bad = 0;
  static float a[1000], b[1000], c[1000], d[1000];
  for (int i = 0; i < n; i++) { a[i] = 5; b[i] = 7; c[i] = 9; d[i] = 11; }
  // data create(zero:)
  #pragma acc data create(zero: a[0:n]) copyout(b[0:n])
  {
    #pragma acc parallel loop
    for (int i = 0; i < n; i++) b[i] = a[i] + 1;
  }
  for (int i = 0; i < n; i++) if (b[i] != 1) { bad++; printf("data %d %f\n", i, b[i]); break; }
  // compute copyout(zero:): elements not written stay zero
  #pragma acc parallel loop copyout(zero: c[0:n])
  for (int i = 0; i < n; i += 2) c[i] = 3;
  for (int i = 0; i < n; i++) if (c[i] != (i % 2 ? 0 : 3)) { bad++; printf("compute %d %f\n", i, c[i]); break; }
  // present data is not zeroed
  #pragma acc enter data copyin(d[0:n])
  #pragma acc parallel loop create(zero: d[0:n]) copyout(b[0:n])
  for (int i = 0; i < n; i++) b[i] = d[i];
  #pragma acc exit data delete(d[0:n])
  for (int i = 0; i < n; i++) if (b[i] != 11) { bad++; printf("present %d %f\n", i, b[i]); break; }
  // enter data create(zero:) + kernels copyout(zero:)
  #pragma acc enter data create(zero: a[0:n])
  #pragma acc kernels copyout(zero: c[0:n]) present(a[0:n])
  for (int i = 0; i < n; i += 3) c[i] = a[i] + 2;
  #pragma acc exit data copyout(a[0:n])
  for (int i = 0; i < n; i++) if (a[i] != 0 || c[i] != (i % 3 ? 0 : 2)) { bad++; printf("enter/kernels %d %f %f\n", i, a[i], c[i]); break; }
  printf("%s %d\n", bad ? "FAIL" : "PASS", bad);
  return bad != 0;
}
