/* PTXRT_DEBUG=1 reports each launch: num_teams/thread_limit clauses, a trip count, and the
 * execution modes that fix the grid or the block. */
#include <stdio.h>
int main(void) {
  enum { N = 1000 };
  double x[N];
  for (int i = 0; i < N; i++) x[i] = i;
#pragma omp target teams distribute parallel for map(tofrom: x) num_teams(7) thread_limit(64)
  for (int i = 0; i < N; i++) x[i] += 1;
#pragma omp target teams distribute parallel for map(tofrom: x)
  for (int i = 0; i < N; i++) x[i] += 1;
#pragma omp target map(tofrom: x)
  x[0] += 1;
#pragma omp target parallel for map(tofrom: x) num_threads(32)
  for (int i = 0; i < N; i++) x[i] += 1;
#pragma omp target teams distribute map(tofrom: x)
  for (int i = 0; i < N; i++) x[i] += 1;
  printf("%s\n", x[0] == 5 && x[1] == 5 ? "ok" : "FAIL");
  return 0;
}
