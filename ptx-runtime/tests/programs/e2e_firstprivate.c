/* firstprivate scalars: the region sees the host values, its changes stay in the region. */
#include <stdio.h>
int main(void) {
  enum { N = 1000 };
  double y[N];
  int offset = 7;
  double scale = 0.5;
  long big = 1L << 40;
#pragma omp target teams distribute parallel for firstprivate(offset, scale) map(from: y)
  for (int i = 0; i < N; i++) y[i] = scale * (i + offset) + (double)(big >> 40);
  int k = 3;
#pragma omp target firstprivate(k) map(tofrom: y[0:1])
  {
    k += 100; /* private copy */
    y[0] += k;
  }
#ifdef _OPENMP
  /* offloaded, the region changed its own copy of k */
  if (k != 3) printf("FAIL: k = %d after the region\n", k);
  k += 100; /* what the serial program did to k */
#endif
  double s = 0;
  for (int i = 0; i < N; i++) s += y[i];
  printf("k %d y[0] %.1f sum %.1f\n", k, y[0], s);
  return 0;
}
