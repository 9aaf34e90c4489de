// omp_get_thread_num / omp_get_team_num / omp_get_num_threads / omp_get_num_teams inside device regions:
// with num_teams(4) thread_limit(64) and a static schedule, every iteration records who ran it; the ids
// are in range, every team and every thread of team 0 got work, and the distribution is what the
// static schedules prescribe (contiguous blocks per team, then per thread).
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t | FileCheck %s
// CHECK: ids in range: 1
// CHECK: PASS
#include <omp.h>
#include <stdio.h>

int main(void) {
  enum { N = 4096 };
  static int team[N], thread[N], nteams[N], nthreads[N];
#pragma omp target teams num_teams(4) thread_limit(64) map(from : team, thread, nteams, nthreads)
#pragma omp distribute parallel for dist_schedule(static) schedule(static)
  for (int i = 0; i < N; i++) {
    team[i] = omp_get_team_num();
    thread[i] = omp_get_thread_num();
    nteams[i] = omp_get_num_teams();
    nthreads[i] = omp_get_num_threads();
  }
  int T = nteams[0], P = nthreads[0], range = 1, monotone = 1;
  int seen_team[64] = {0}, seen_thread0[1024] = {0};
  for (int i = 0; i < N; i++) {
    range &= team[i] >= 0 && team[i] < T && thread[i] >= 0 && thread[i] < nthreads[i] && nteams[i] == T;
    if (range) {
      seen_team[team[i]] = 1;
      if (team[i] == 0)
        seen_thread0[thread[i]] = 1;
    }
    if (i > 0 && team[i] < team[i - 1])
      monotone = 0; /* dist_schedule(static): each team gets one contiguous block, in team order */
    if (i > 0 && team[i] == team[i - 1] && thread[i] < thread[i - 1])
      monotone = 0; /* schedule(static) inside a team: contiguous blocks in thread order */
  }
  int all = T >= 1 && T <= 4 && P >= 1 && P <= 64;
  for (int t = 0; range && t < T; t++)
    all &= seen_team[t];
  for (int p = 0; range && p < nthreads[0] && p < 1024; p++)
    all &= seen_thread0[p];
  printf("%d teams, %d threads in team 0\nids in range: %d\nevery team and thread worked: %d\nstatic order: %d\n",
         T, P, range, all, monotone);
  int ok = range && all && monotone;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return !ok;
}
