// critical in parallel loops and parallel regions of target regions: a named critical section for
// a max-with-location update, an unnamed one around two updates, and many threads updating a small
// histogram; every update is made once, atomically with the others of its section.
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t | FileCheck %s
// RUN: %ptxcc -fopenmp -O0 %s -o %t0
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t0 | FileCheck %s
// Before sm_70 the threads of a warp cannot wait on a spin lock: an error, at each critical.
// RUN: not %ptxcc -fopenmp --offload-arch=sm_60 -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=OLD
// CHECK: 1001672.0 12345 20000 20000.0
// CHECK-NEXT: 1280 128 128
// OLD: critical.c:[[#@LINE+13]]:1: error: ptxcc supports 'critical' in target regions on sm_70 and newer GPUs (independent thread scheduling), not sm_60
// OLD-NEXT: critical.c:[[#@LINE+14]]:1: error:
// OLD-NEXT: critical.c:[[#@LINE+22]]:1: error:
// OLD-NEXT: 3 errors generated.
#include <stdio.h>
#include <omp.h>
#define N 20000
int main(void) {
  static double a[N];
  for (int i = 0; i < N; i++) a[i] = (double)((i * 7919) % 10007) + (i == 12345 ? 1e6 : 0);
  double mx = -1; int imx = -1; long cnt = 0; double sum = 0;
#pragma omp target teams distribute parallel for map(to: a) map(tofrom: mx, imx, cnt, sum)
  for (int i = 0; i < N; i++) {
#pragma omp critical(maxloc)
    { if (a[i] > mx) { mx = a[i]; imx = i; } }
#pragma omp critical
    { cnt++; sum += 1.0; }
  }
  printf("%.1f %d %ld %.1f\n", mx, imx, cnt, sum);
  int hist[10] = {0};
#pragma omp target parallel num_threads(128) map(tofrom: hist)
  {
    int t = omp_get_thread_num();
    for (int k = 0; k < 10; k++) {
#pragma omp critical
      hist[(t + k) % 10] += 1;
    }
  }
  int hs = 0; for (int i = 0; i < 10; i++) hs += hist[i];
  printf("%d %d %d\n", hs, hist[0], hist[9]);
  return 0;
}
