// Several devices, each with its own memory: PTXRT_EMU_DEVICES=3 on the emulator, PTXSIM_DEVICES=3
// on ptxsim (each variable only affects its own device kind). device(n) picks the device of a
// construct, omp_target_alloc/omp_target_memcpy move data between devices, and the number after
// the last device is the host.
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: env PTXRT_EMU_DEVICES=3 PTXSIM_DEVICES=3 OMP_TARGET_OFFLOAD=MANDATORY %t | FileCheck %s
// CHECK: devices: 3
// CHECK-NEXT: device 0: a[7] = 7
// CHECK-NEXT: device 1: a[7] = 1008
// CHECK-NEXT: device 2: a[7] = 2009
// CHECK-NEXT: present: 1 1 1, after exit 0 1 1
// CHECK-NEXT: on the host: device(3) initial=1
// CHECK-NEXT: device(2) initial=0
// CHECK-NEXT: peer copy: 42 42
// CHECK-NEXT: PASS
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define N 1000

int main(void) {
  int ndev = omp_get_num_devices();
  printf("devices: %d\n", ndev);
  if (ndev != 3)
    return 1;
  static double a[N], out[3][N];
  int ok = 1;
  // Each device gets its own copy of a: the host changes a between the copies.
  for (int d = 0; d < 3; d++) {
    for (int i = 0; i < N; i++)
      a[i] = i + 1000.0 * d;
#pragma omp target enter data map(to : a[0:N]) device(d)
  }
  // Kernels on each device see their own copy, whatever the host holds now.
  for (int i = 0; i < N; i++)
    a[i] = -1;
  for (int d = 0; d < 3; d++) {
#pragma omp target teams distribute parallel for device(d)
    for (int i = 0; i < N; i++)
      a[i] += d;
#pragma omp target update from(a[0:N]) device(d)
    for (int i = 0; i < N; i++) {
      out[d][i] = a[i];
      if (a[i] != i + 1001.0 * d)
        ok = 0;
    }
    printf("device %d: a[7] = %g\n", d, out[d][7]);
  }
  int p0 = omp_target_is_present(a, 0), p1 = omp_target_is_present(a, 1),
      p2 = omp_target_is_present(a, 2);
#pragma omp target exit data map(delete : a[0:N]) device(0)
  printf("present: %d %d %d, after exit %d %d %d\n", p0, p1, p2, omp_target_is_present(a, 0),
         omp_target_is_present(a, 1), omp_target_is_present(a, 2));
  for (int d = 1; d < 3; d++) {
#pragma omp target exit data map(delete : a[0:N]) device(d)
  }
  int initial = -1;
#pragma omp target map(from : initial) device(3)
  initial = omp_is_initial_device();
  printf("on the host: device(3) initial=%d\n", initial);
#pragma omp target map(from : initial) device(2)
  initial = omp_is_initial_device();
  printf("device(2) initial=%d\n", initial);
  // A buffer on device 1 copied to device 2, then back to the host.
  int v = 42, w = 0, back = 0;
  int *d1 = omp_target_alloc(sizeof(int), 1), *d2 = omp_target_alloc(sizeof(int), 2);
  omp_target_memcpy(d1, &v, sizeof v, 0, 0, 1, omp_get_initial_device());
  omp_target_memcpy(d2, d1, sizeof v, 0, 0, 2, 1);
  omp_target_memcpy(&w, d2, sizeof w, 0, 0, omp_get_initial_device(), 2);
#pragma omp target is_device_ptr(d2) map(from : back) device(2)
  back = *d2;
  printf("peer copy: %d %d\n", w, back);
  omp_target_free(d1, 1);
  omp_target_free(d2, 2);
  if (w != 42 || back != 42)
    ok = 0;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return !ok;
}
