// host_data use_device: the device address goes to code that takes device pointers
// (here a compute construct with deviceptr, and acc_hostptr).
// REQUIRES: libptxrt
// RUN: %ptxcc -fopenacc %s -o %t && %run %t | FileCheck %s
// CHECK: PASS
#include <stdio.h>
#include <openacc.h>
static void scale_on_device(float *dev, int n) {
  #pragma acc parallel loop deviceptr(dev)
  for (int i = 0; i < n; i++) dev[i] *= 3;
}
int main(void) {
  int n = 777, bad = 0;
  static float a[777];
  float *p = a;
  for (int i = 0; i < n; i++) a[i] = i;
  #pragma acc data copy(a)
  {
    #pragma acc host_data use_device(p)
    {
      if (p == a) { printf("use_device gave the host address\n"); bad++; }
      if (acc_hostptr(p) != a) { printf("acc_hostptr\n"); bad++; }
      scale_on_device(p, n);
    }
  }
  for (int i = 0; i < n; i++) if (a[i] != 3 * i) { printf("host_data %d %f\n", i, a[i]); bad++; break; }
  printf("%s %d\n", bad ? "FAIL" : "PASS", bad);
  return bad != 0;
}
