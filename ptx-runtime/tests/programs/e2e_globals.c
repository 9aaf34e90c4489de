/* Globals used in target regions: declare target arrays and scalars, target update to/from. */
#include <stdio.h>
#define N 512
#pragma omp declare target
double table[N];
double factor = 3.0;
int counter;
#pragma omp end declare target
int main(void) {
  for (int i = 0; i < N; i++) table[i] = i;
#pragma omp target update to(table)
#pragma omp target teams distribute parallel for
  for (int i = 0; i < N; i++) table[i] = table[i] * factor + 1;
#pragma omp target
  counter = 42;
#pragma omp target update from(table, counter)
  factor = 0.5;
#pragma omp target update to(factor)
  double out[N];
#pragma omp target teams distribute parallel for map(from: out)
  for (int i = 0; i < N; i++) out[i] = table[i] * factor;
  double s = 0;
  for (int i = 0; i < N; i++) s += out[i];
  printf("counter %d table[10] %.1f sum %.2f\n", counter, table[10], s);
  return 0;
}
