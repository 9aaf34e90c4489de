// The OpenACC 3.3 per-device runtime routines (acc_init_device, acc_shutdown_device, the
// _device forms of acc_wait* and acc_async_test*), acc_wait_any(_device) and
// acc_memcpy_d2d(_async), on the current device named by its number. PTXSIM_STREAM_DELAY_US
// keeps ptxsim's queues busy for a while, so the waits have something to wait for.
// REQUIRES: libptxrt
// RUN: %ptxcc -fopenacc -O2 %s -o %t
// RUN: %run env PTXSIM_STREAM_DELAY_US=2000 %t | FileCheck %s
// CHECK: PASS
#include <openacc.h>
#include <stdio.h>

#define N 4096
static float a[N], b[N], c[N];

int main(void) {
  int bad = 0;
  int dev = acc_get_device_num(acc_device_nvidia);
  acc_init_device(dev, acc_device_nvidia);
  acc_init_device(0, acc_device_host);
  #pragma acc init device_num(dev) device_type(nvidia)
  for (int i = 0; i < N; i++) a[i] = i, b[i] = -1, c[i] = -1;

  acc_copyin_async(a, sizeof a, 1);
  acc_create(b, sizeof b);
  acc_copyin(c, sizeof c);
  acc_wait_device(1, dev);
  if (acc_async_test_device(1, dev) != 1) { printf("queue 1 not idle after acc_wait_device\n"); bad++; }

  #pragma acc parallel loop present(a) async(2)
  for (int i = 0; i < N; i++) a[i] *= 2;

  // acc_async_sync names no queue; queue 7 was never used, so it has completed.
  int queues[3] = {acc_async_sync, 2, 7};
  int k = acc_wait_any(3, queues);
  if (k != 1 && k != 2) { printf("acc_wait_any returned %d\n", k); bad++; }
  if (acc_wait_any(1, queues) != -1 || acc_wait_any(0, queues) != -1) { printf("acc_wait_any of nothing\n"); bad++; }
  k = acc_wait_any_device(2, queues, dev);
  if (k != 1) { printf("acc_wait_any_device returned %d\n", k); bad++; }
  acc_wait_device(2, dev);

  // Device to device, between the device copies of a and b.
  acc_memcpy_d2d(b, a, sizeof a, dev, dev);
  acc_update_self(b, sizeof b);
  for (int i = 0; i < N; i++)
    if (b[i] != 2.0f * i) { printf("acc_memcpy_d2d: b[%d] = %f\n", i, b[i]); bad++; break; }

  // The async form on queue 3, half of it; queue 4 then waits for 3 on the device.
  acc_memcpy_d2d_async(c, a + N / 2, sizeof a / 2, dev, dev, 3);
  acc_wait_device_async(3, 4, dev);
  acc_wait_all_device_async(5, dev);
  acc_update_self_async(c, sizeof c, 4);
  acc_wait_all_device(dev);
  if (acc_async_test_all_device(dev) != 1) { printf("queues not idle after acc_wait_all_device\n"); bad++; }
  for (int i = 0; i < N / 2; i++)
    if (c[i] != 2.0f * (i + N / 2)) { printf("acc_memcpy_d2d_async: c[%d] = %f\n", i, c[i]); bad++; break; }
  if (c[N / 2] != -1) { printf("acc_memcpy_d2d_async copied too much\n"); bad++; }

  acc_delete(a, sizeof a);
  acc_delete(b, sizeof b);
  acc_delete(c, sizeof c);
  acc_shutdown_device(0, acc_device_host);
  acc_shutdown_device(dev, acc_device_nvidia);
  #pragma acc shutdown device_num(dev)
  printf("%s %d\n", bad ? "FAIL" : "PASS", bad);
  return bad != 0;
}
