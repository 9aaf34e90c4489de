// master, masked, single (with and without nowait) and flush in parallel regions of target regions:
// thread 0 (the filter) runs the region once per team; single with its barrier lets the other
// threads see what it wrote. In the code of a teams region outside its parallel loop (the team's
// one thread) a single runs once per team.
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t | FileCheck %s
// RUN: %ptxcc -fopenmp -O0 %s -o %t0
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t0 | FileCheck %s
// CHECK: 1 1 1 1 who=0 who2=5 cnt=64 sum=32640
// CHECK-NEXT: 32 32 32 32
// CHECK-NEXT: 42
#include <stdio.h>
#include <omp.h>
int main(void) {
  int x[6] = {0}, cnt = 0, who = -1, who2 = -1, sum = 0;
  int arr[256];
#pragma omp target parallel num_threads(64) map(tofrom: x, cnt, who, who2, arr, sum)
  {
    int t = omp_get_thread_num();
#pragma omp master
    { x[0] += 1; who = t; }
#pragma omp masked filter(5)
    { x[1] += 1; who2 = t; }
#pragma omp single
    x[2] += 1;
#pragma omp single nowait
    x[3] += 1;
#pragma omp flush
#pragma omp barrier
#pragma omp for
    for (int i = 0; i < 256; i++) arr[i] = i;
#pragma omp single
    { for (int i = 0; i < 256; i++) sum += arr[i]; }
#pragma omp atomic
    cnt++;
  }
  printf("%d %d %d %d who=%d who2=%d cnt=%d sum=%d\n", x[0], x[1], x[2], x[3], who, who2, cnt, sum);
  int y[4] = {0};
#pragma omp target teams num_teams(4) map(tofrom: y)
  {
#pragma omp parallel num_threads(32)
    {
#pragma omp single
      y[omp_get_team_num()] += omp_get_num_threads();
    }
  }
  printf("%d %d %d %d\n", y[0], y[1], y[2], y[3]);
  int z = 0;
#pragma omp target teams distribute map(tofrom: z) num_teams(1)
  for (int i = 0; i < 3; i++) {
#pragma omp single
    z += 10;
#pragma omp parallel for
    for (int j = 0; j < 4; j++) {
#pragma omp atomic
      z += 1;
    }
  }
  printf("%d\n", z);
  return 0;
}
