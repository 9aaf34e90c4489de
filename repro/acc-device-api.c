// OpenACC 3.3 runtime routines that libptxrt and openacc.h lack: the per-device variants
// (acc_init_device, acc_shutdown_device, acc_async_test_device, acc_async_test_all_device,
// acc_wait_device, acc_wait_device_async, acc_wait_all_device, acc_wait_all_device_async,
// acc_wait_any_device), acc_wait_any and acc_memcpy_d2d(_async). The OpenACC V&V suite tests
// them. ptxcc: "call to undeclared function 'acc_wait_any'" (and the others).
// Build: target/release/ptxcc -fopenacc repro/acc-device-api.c -o /tmp/x && /tmp/x
#include <openacc.h>
#include <stdio.h>
#include <stdlib.h>
int main(void) {
  int n = 1000, q[2] = {1, 2};
  float *a = malloc(n * sizeof(float)), *b = malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) a[i] = i;
  acc_init_device(0, acc_device_nvidia);
  #pragma acc enter data copyin(a[0:n]) create(b[0:n]) async(1)
  int done = acc_wait_any(2, q);
  acc_wait_device(1, 0);
  acc_memcpy_d2d(b, a, n * sizeof(float), 0, 0);
  #pragma acc exit data copyout(b[0:n]) delete(a[0:n])
  printf("%d %f\n", done, b[999]);
  acc_shutdown_device(0, acc_device_nvidia);
  return 0;
}
