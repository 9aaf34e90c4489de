// num_teams and thread_limit: the region runs with at most the requested numbers (at least one of each),
// omp_get_num_teams / omp_get_num_threads agree with them, and all iterations run once.
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t | FileCheck %s
// CHECK: PASS
#include <omp.h>
#include <stdio.h>

int main(void) {
  enum { N = 20000 };
  static int hits[N];
  int teams = -1, threads = -1, maxteam = -1, maxthread = -1;
  int ok = 1;
  const int req_teams[3] = {1, 7, 64}, req_threads[3] = {1, 32, 96};
  for (int c = 0; c < 3; c++) {
    int nt = req_teams[c], tl = req_threads[c];
    for (int i = 0; i < N; i++)
      hits[i] = 0;
    maxteam = maxthread = -1;
#pragma omp target teams distribute parallel for num_teams(nt) thread_limit(tl) map(tofrom : hits, teams, threads) \
    reduction(max : maxteam, maxthread)
    for (int i = 0; i < N; i++) {
      hits[i] += 1;
      if (i == 0) {
        teams = omp_get_num_teams();
        threads = omp_get_num_threads();
      }
      maxteam = omp_get_team_num() > maxteam ? omp_get_team_num() : maxteam;
      maxthread = omp_get_thread_num() > maxthread ? omp_get_thread_num() : maxthread;
    }
    int all = 1;
    for (int i = 0; i < N; i++)
      all &= hits[i] == 1;
    int good = all && teams >= 1 && teams <= nt && threads >= 1 && threads <= tl && maxteam < teams &&
               maxthread < threads;
    printf("num_teams(%d) thread_limit(%d): %d teams of %d threads, max team %d, max thread %d, all ran once: %d\n",
           nt, tl, teams, threads, maxteam, maxthread, all);
    ok &= good;
  }
  printf("%s\n", ok ? "PASS" : "FAIL");
  return !ok;
}
