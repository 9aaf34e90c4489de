// OpenACC on several devices (PTXRT_EMU_DEVICES=2 on the emulator, PTXSIM_DEVICES=2 on ptxsim):
// acc_get_num_devices counts them, acc_set_device_num and `set device_num` choose the device of
// the constructs that follow, each device keeps its own copy of the data, and acc_memcpy_d2d
// copies from one device's copy to another's.
// REQUIRES: libptxrt
// RUN: %ptxcc -fopenacc %s -o %t
// RUN: env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 %run %t | FileCheck %s
// CHECK: nvidia devices: 2
// CHECK-NEXT: device 0: present 0 1, x[5] = 6
// CHECK-NEXT: device 1: present 0 0, x[5] = 15
// CHECK-NEXT: acc_memcpy_d2d from device 0 to 1: ok
// CHECK-NEXT: after the set directive: device 1
// CHECK-NEXT: PASS
#include <openacc.h>
#include <stdio.h>

#define N 4096
static float x[N], y[N], saved[2][N];

int main(void) {
  int n = acc_get_num_devices(acc_device_nvidia);
  printf("nvidia devices: %d\n", n);
  if (n != 2)
    return 1;
  int ok = 1;
  for (int d = 0; d < 2; d++) {
    acc_set_device_num(d, acc_device_nvidia);
    for (int i = 0; i < N; i++)
      x[i] = i;
#pragma acc enter data copyin(x[0:N])
  }
  for (int d = 0; d < 2; d++) {
    acc_set_device_num(d, acc_device_nvidia);
#pragma acc parallel loop present(x[0:N])
    for (int i = 0; i < N; i++)
      x[i] = x[i] * (1 + d) + 1 + 4 * d;
  }
  for (int d = 0; d < 2; d++) {
    acc_set_device_num(d, acc_device_nvidia);
#pragma acc exit data copyout(x[0:N])
    for (int i = 0; i < N; i++) {
      saved[d][i] = x[i];
      if (x[i] != i * (1 + d) + 1 + 4 * d)
        ok = 0;
    }
    // Leaving device d's data does not touch the other device's copy.
    acc_set_device_num(0, acc_device_nvidia);
    int p0 = acc_is_present(x, sizeof x);
    acc_set_device_num(1, acc_device_nvidia);
    int p1 = acc_is_present(x, sizeof x);
    printf("device %d: present %d %d, x[5] = %g\n", d, p0, p1, x[5]);
  }
  // acc_memcpy_d2d from device 0's copy of y to device 1's, device to device.
  for (int d = 0; d < 2; d++) {
    acc_set_device_num(d, acc_device_nvidia);
    for (int i = 0; i < N; i++)
      y[i] = d == 0 ? i + 0.5f : -1;
#pragma acc enter data copyin(y[0:N])
  }
  for (int i = 0; i < N; i++)
    y[i] = 0;
  acc_memcpy_d2d(y, y, sizeof y, 1, 0);
  acc_set_device_num(1, acc_device_nvidia);
#pragma acc exit data copyout(y[0:N])
  int same = 1;
  for (int i = 0; i < N; i++)
    same &= y[i] == i + 0.5f;
  printf("acc_memcpy_d2d from device 0 to 1: %s\n", same ? "ok" : "wrong");
  ok &= same;
  acc_set_device_num(0, acc_device_nvidia);
#pragma acc exit data delete(y[0:N])
#pragma acc set device_num(1)
  printf("after the set directive: device %d\n", acc_get_device_num(acc_device_nvidia));
  printf("%s\n", ok ? "PASS" : "FAIL");
  return !ok;
}
