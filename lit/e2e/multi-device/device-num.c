// omp_get_device_num() in target regions answers the number of the device that runs the
// region (OpenMP 5.2 §18.7.5): on the host the initial device's number, in a region with
// device(n) n — in team code, in a parallel loop and in a declare target function, on each
// of 2 emulated and 2 ptxsim devices (each variable only affects its own device kind).
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 OMP_TARGET_OFFLOAD=MANDATORY %t | FileCheck %s
// RUN: env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 OMP_TARGET_OFFLOAD=MANDATORY OMP_DEFAULT_DEVICE=1 %t | FileCheck %s --check-prefix=DEFAULT1
// CHECK: host: 2 of 2 devices
// CHECK-NEXT: device(0): single 0, team 0, loop 0..0, function 0
// CHECK-NEXT: device(1): single 1, team 1, loop 1..1, function 1
// CHECK-NEXT: default device: 0
// CHECK-NEXT: device(2) is the host: 2
// CHECK-NEXT: PASS
// DEFAULT1: default device: 1
// DEFAULT1: PASS
#include <omp.h>
#include <stdio.h>

#define N 1000

#pragma omp declare target
int where(void) { return omp_get_device_num(); }
#pragma omp end declare target

int main(void) {
  int ndev = omp_get_num_devices(), ok = 1;
  printf("host: %d of %d devices\n", omp_get_device_num(), ndev);
  if (ndev != 2 || omp_get_device_num() != omp_get_initial_device())
    return 1;
  for (int d = 0; d < ndev; d++) {
    int single = -1, team[4] = {-1, -1, -1, -1}, fn = -1, lo = 1 << 30, hi = -1;
    int loop[N];
#pragma omp target map(from : single) device(d)
    single = omp_get_device_num();
#pragma omp target teams num_teams(4) map(from : team) device(d)
    team[omp_get_team_num()] = omp_get_device_num();
#pragma omp target teams distribute parallel for map(from : loop) device(d)
    for (int i = 0; i < N; i++)
      loop[i] = omp_get_device_num();
#pragma omp target map(from : fn) device(d)
    fn = where();
    for (int i = 0; i < N; i++) {
      lo = loop[i] < lo ? loop[i] : lo;
      hi = loop[i] > hi ? loop[i] : hi;
    }
    for (int t = 0; t < 4; t++)
      if (team[t] != d)
        ok = 0;
    printf("device(%d): single %d, team %d, loop %d..%d, function %d\n", d, single, team[0], lo,
           hi, fn);
    if (single != d || lo != d || hi != d || fn != d)
      ok = 0;
  }
  int dflt = -1;
#pragma omp target map(from : dflt)
  dflt = omp_get_device_num();
  printf("default device: %d\n", dflt);
  if (dflt != omp_get_default_device())
    ok = 0;
  int host = -1;
#pragma omp target map(from : host) device(2)
  host = omp_get_device_num();
  printf("device(2) is the host: %d\n", host);
  if (host != omp_get_initial_device())
    ok = 0;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return !ok;
}
