// acc_attach / acc_detach (and their async forms): the device copy of a struct's pointer member
// points at the device copy of its target after attach, and holds the host pointer again after
// detach; a null pointer is left alone.
// REQUIRES: libptxrt
// RUN: %ptxcc -fopenacc %s -o %t && %run %t | FileCheck %s
// CHECK: PASS
#include <openacc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
typedef struct { int n; double *x; double *unused; } V;

static uintptr_t device_value_of_x(V *v) {
  uintptr_t addr = 0;
  #pragma acc serial present(v[0:1]) copyout(addr)
  addr = (uintptr_t)v->x;
  return addr;
}

int main(void) {
  int n = 1000, bad = 0;
  double *a = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) a[i] = i;
  V v = { n, a, NULL };
  #pragma acc enter data copyin(v)
  acc_copyin(a, n * sizeof(double));
  acc_attach((void **)&v.x);
  acc_attach((void **)&v.unused);
  if (device_value_of_x(&v) != (uintptr_t)acc_deviceptr(a)) bad |= 1;
  #pragma acc parallel loop present(v)
  for (int i = 0; i < v.n; i++) v.x[i] = 2 * i;
  acc_detach((void **)&v.x);
  if (device_value_of_x(&v) != (uintptr_t)a) bad |= 2;
  acc_detach((void **)&v.x);  // not attached: nothing happens
  acc_attach_async((void **)&v.x, 1);
  acc_wait(1);
  if (device_value_of_x(&v) != (uintptr_t)acc_deviceptr(a)) bad |= 4;
  acc_detach_finalize_async((void **)&v.x, 2);
  acc_wait(2);
  if (device_value_of_x(&v) != (uintptr_t)a) bad |= 8;
  acc_copyout(a, n * sizeof(double));
  #pragma acc exit data delete(v)
  for (int i = 0; i < n; i++) if (a[i] != 2 * i) { bad |= 16; break; }
  printf("%s %d\n", bad ? "FAIL" : "PASS", bad);
  return bad;
}
