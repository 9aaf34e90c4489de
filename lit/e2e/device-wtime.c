// omp_get_wtime()/omp_get_wtick() in a target region: the GPU's nanosecond timer in the PTX, the
// host's wall clock in the emulator; time goes forward and the tick is small.
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t | FileCheck %s
// CHECK: elapsed ok=1 tick ok=1 sane=1
#include <stdio.h>
#include <omp.h>
int main(void) {
  double t0 = -1, t1 = -1, tick = 0, host0 = omp_get_wtime();
  double s = 0;
#pragma omp target map(from: t0, t1, tick) map(tofrom: s)
  {
    t0 = omp_get_wtime();
    for (int i = 0; i < 1000000; i++) s += i * 1e-9;
    t1 = omp_get_wtime();
    tick = omp_get_wtick();
  }
  printf("elapsed ok=%d tick ok=%d sane=%d\n", t1 >= t0, tick > 0 && tick < 1e-3, t1 - t0 < 10.0);
  (void)host0;
  return 0;
}
