// A declare target helper that calls omp_get_thread_num(), called both from the code of a teams
// region (where OpenMP says it returns 0: the team's initial thread) and from its parallel loop.
// Expected: team=0 and every slot of the parallel loop holds its thread number.
#include <omp.h>
#include <stdio.h>
#pragma omp declare target
int me(void) { return omp_get_thread_num(); }
#pragma omp end declare target
int main(void) {
  int team[4] = {-1, -1, -1, -1}, par[4 * 64];
#pragma omp target teams num_teams(4) thread_limit(64) map(from : team, par)
  {
    int t = omp_get_team_num();
    int who = me();
    team[t] = who;
#pragma omp parallel
    par[t * 64 + omp_get_thread_num()] = me();
  }
  int ok = 1;
  for (int t = 0; t < 4; t++) {
    ok &= team[t] == 0;
    for (int i = 0; i < 64; i++) ok &= par[t * 64 + i] == i;
  }
  printf("team: %d %d %d %d -> %s\n", team[0], team[1], team[2], team[3], ok ? "PASS" : "FAIL");
  return !ok;
}
