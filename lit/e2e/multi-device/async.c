// Asynchronous work on several devices: `target nowait` regions on devices 1 and 2 at once (each
// host thread's CUDA stream on its device, or the emulator's synchronous launches), then
// taskwait; each device's copy stays its own.
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: env PTXRT_EMU_DEVICES=3 PTXSIM_DEVICES=3 %run %t | FileCheck %s
// CHECK: device 1: 3000 device 2: 5999
// CHECK-NEXT: PASS
#include <omp.h>
#include <stdio.h>

#define N 3000
static double a[N], b[N];

int main(void) {
  for (int i = 0; i < N; i++)
    a[i] = b[i] = 1;
#pragma omp target enter data map(to : a) device(1)
#pragma omp target enter data map(to : b) device(2)
#pragma omp parallel num_threads(2)
#pragma omp single
  {
#pragma omp target teams distribute parallel for nowait device(1)
    for (int i = 0; i < N; i++)
      a[i] += i;
#pragma omp target teams distribute parallel for nowait device(2)
    for (int i = 0; i < N; i++)
      b[i] += 2 * i;
#pragma omp taskwait
  }
  // a is not on device 2 nor b on device 1.
  int ok = !omp_target_is_present(a, 2) && !omp_target_is_present(b, 1);
#pragma omp target exit data map(from : a) device(1)
#pragma omp target exit data map(from : b) device(2)
  for (int i = 0; i < N; i++)
    ok &= a[i] == 1 + i && b[i] == 1 + 2 * i;
  printf("device 1: %g device 2: %g\n", a[N - 1], b[N - 1]);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return !ok;
}
