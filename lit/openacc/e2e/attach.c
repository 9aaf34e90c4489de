// attach/detach: a struct's pointer member pointed at data already on the device.
// REQUIRES: libptxrt
// RUN: %ptxcc -fopenacc %s -o %t && %run %t | FileCheck %s
// CHECK: PASS
#include <stdio.h>
#include <stdlib.h>
typedef struct { int n; float *v; } S;
int main(void) {
  int n = 100, bad = 0;
  S s; s.n = n; s.v = malloc(n * sizeof(float));
  float *w = malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) { s.v[i] = i; w[i] = -i; }
  #pragma acc enter data copyin(s)
  #pragma acc enter data copyin(w[0:n])
  float *old = s.v;
  s.v = w;
  #pragma acc enter data attach(s.v)
  #pragma acc parallel loop present(s)
  for (int i = 0; i < s.n; i++) s.v[i] *= 2;
  #pragma acc exit data detach(s.v)
  #pragma acc exit data copyout(w[0:n])
  #pragma acc exit data delete(s)
  for (int i = 0; i < n; i++) if (w[i] != -2 * i) { bad++; printf("%d %f\n", i, w[i]); break; }
  printf("%s\n", bad ? "FAIL" : "PASS");
  free(old); free(w);
  return bad;
}
