// OpenMP's thread queries in the code of a target teams region outside its parallel region: every
// thread of the block runs that code, but OpenMP sees the team's initial thread alone (thread 0 of
// 1, level 0, not in parallel); inside the parallel region they see the region's threads. A branch
// on omp_get_thread_num() there must be taken by the whole team, not by thread 0 alone.
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t | FileCheck %s
// CHECK: PASS
#include <omp.h>
#include <stdio.h>

int main(void) {
  enum { T = 8 };
  int tn[T], nt[T], lv[T], ip[T], inner[T], first[T];
#pragma omp target teams num_teams(T) thread_limit(64) map(from : tn, nt, lv, ip, inner, first)
  {
    int t = omp_get_team_num();
    tn[t] = omp_get_thread_num();
    nt[t] = omp_get_num_threads();
    lv[t] = omp_get_level();
    ip[t] = omp_in_parallel();
    first[t] = 0;
    if (omp_get_thread_num() == 0 && omp_get_num_threads() == 1)
      first[t] = 1;
    int cnt = 0;
#pragma omp parallel reduction(+ : cnt)
    cnt += omp_get_level() + 10 * omp_in_parallel() + 100 * (omp_get_num_threads() > 1);
    inner[t] = cnt;
  }
  int ok = 1;
  for (int i = 0; i < T; i++) {
    printf("team %d: thread %d of %d, level %d, in parallel %d, first %d, inner %d\n", i, tn[i], nt[i], lv[i], ip[i], first[i], inner[i]);
    ok &= tn[i] == 0 && nt[i] == 1 && lv[i] == 0 && ip[i] == 0 && first[i] == 1 && inner[i] > 0 && inner[i] % 111 == 0;
  }
  printf("%s\n", ok ? "PASS" : "FAIL");
  return !ok;
}
