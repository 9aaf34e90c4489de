// omp_get_max_teams and omp_get_teams_thread_limit in a target region read the device's ICVs
// (OpenMP 5.2 section 18.4.4, 18.4.6): 0, no limit requested, as on the host when nothing set
// them; a teams region then has at least one team and its count is within any positive bound.
// RUN: %ptxcc -fopenmp -O1 %s -o %t
// RUN: %run %t | FileCheck %s
// CHECK: device: max_teams 0, teams_thread_limit 0, teams ok
// CHECK: host: max_teams 0, teams_thread_limit 0
#include <omp.h>
#include <stdio.h>

int main(void) {
  int mt = -1, tl = -1, nt = 0;
#pragma omp target map(from : mt, tl)
  {
    mt = omp_get_max_teams();
    tl = omp_get_teams_thread_limit();
  }
#pragma omp target teams map(tofrom : nt)
  if (omp_get_team_num() == 0)
    nt = omp_get_num_teams();
  printf("device: max_teams %d, teams_thread_limit %d, teams %s\n", mt, tl,
         nt >= 1 && (mt <= 0 || nt <= mt) ? "ok" : "WRONG");
  printf("host: max_teams %d, teams_thread_limit %d\n", omp_get_max_teams(),
         omp_get_teams_thread_limit());
  return 0;
}
