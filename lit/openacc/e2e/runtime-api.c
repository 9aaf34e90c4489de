// The directives that call the runtime (init, set, shutdown) and the routines people use.
// REQUIRES: libptxrt
// RUN: %ptxcc -fopenacc %s -o %t && %run %t | FileCheck %s
// CHECK: PASS
#include <stdio.h>
#include <openacc.h>
int main(void) {
  int bad = 0, n = 256;
  #pragma acc init device_type(nvidia)
  if (acc_get_num_devices(acc_device_nvidia) < 1) { printf("no devices\n"); bad++; }
  #pragma acc set device_num(0) device_type(nvidia)
  if (acc_get_device_num(acc_device_nvidia) != 0) { printf("device num\n"); bad++; }
  if (acc_on_device(acc_device_host) != 1) { printf("host code not on host\n"); bad++; }
  static float a[256], b[256];
  for (int i = 0; i < n; i++) a[i] = i;
  float *d = acc_copyin(a, sizeof a);
  if (!d || !acc_is_present(a, sizeof a) || acc_deviceptr(a) != d) { printf("copyin\n"); bad++; }
  #pragma acc parallel loop present(a)
  for (int i = 0; i < n; i++) a[i] += 1;
  acc_update_self(a, sizeof a);
  if (a[10] != 11) { printf("update_self %f\n", a[10]); bad++; }
  acc_delete(a, sizeof a);
  acc_create(b, sizeof b);
  #pragma acc parallel loop present(b) async(3)
  for (int i = 0; i < n; i++) b[i] = 7;
  #pragma acc wait(3)
  acc_copyout(b, sizeof b);
  if (b[100] != 7) { printf("create/copyout %f\n", b[100]); bad++; }
  #pragma acc set default_async(4)
  #pragma acc shutdown device_type(nvidia)
  printf("%s %d\n", bad ? "FAIL" : "PASS", bad);
  return bad != 0;
}
