// printf in target regions: the PTX calls CUDA's vprintf with the arguments packed (ptx/printf.c),
// the emulator the host's printf. A region's own code prints once per team, a parallel loop once
// per iteration; conversions with widths, longs, doubles, chars and strings print as on the host.
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t | FileCheck %s
// CHECK: device: 5 2.5 1.500000 1234567890123 lit z  2.50|5   |
// CHECK-NEXT: no arguments
// CHECK-DAG: team 0 of 3
// CHECK-DAG: team 1 of 3
// CHECK-DAG: team 2 of 3
// CHECK-DAG: row 0 in team 0 (thread 0 of 1)
// CHECK-DAG: row 1 in team 0 (thread 0 of 1)
// CHECK-DAG: row 2 in team 1 (thread 0 of 1)
// CHECK-DAG: row 3 in team 1 (thread 0 of 1)
// CHECK-DAG: iteration 0
// CHECK-DAG: iteration 7
// CHECK: done
// CHECK-NOT: {{.}}
#include <omp.h>
#include <stdio.h>

int main(void) {
  int a = 5;
  double x = 2.5;
  float f = 1.5f;
  long l = 1234567890123L;
#pragma omp target map(to : a, x, f, l)
  {
    printf("device: %d %g %f %ld %s %c %5.2f|%-4d|\n", a, x, f, l, "lit", 'z', x, a);
    printf("no arguments\n");
  }
#pragma omp target teams num_teams(3)
  printf("team %d of %d\n", omp_get_team_num(), omp_get_num_teams());
  int rows[8];
#pragma omp target teams distribute num_teams(2) map(from : rows)
  for (int t = 0; t < 4; t++) {
    printf("row %d in team %d (thread %d of %d)\n", t, omp_get_team_num(), omp_get_thread_num(), omp_get_num_threads());
#pragma omp parallel for num_threads(2)
    for (int j = 0; j < 2; j++)
      rows[t * 2 + j] = t;
  }
#pragma omp target teams distribute parallel for num_teams(2) thread_limit(4)
  for (int i = 0; i < 8; i++)
    printf("iteration %d\n", i);
  fflush(stdout);
  printf("done\n");
  return rows[7] != 3;
}
