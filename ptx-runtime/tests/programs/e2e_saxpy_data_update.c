/* saxpy inside a target data region, with target update to/from between the launches. */
#include <stdio.h>
#include <stdlib.h>
int main(void) {
  int n = 100000;
  float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
  for (int i = 0; i < n; i++) { x[i] = (float)(i % 100); y[i] = 1.0f; }
  float a = 2.0f;
  double mid = 0;
#pragma omp target data map(to: x[0:n]) map(tofrom: y[0:n])
  {
    for (int it = 0; it < 4; it++) {
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i];
      if (it == 1) {
#pragma omp target update from(y[0:n])
        for (int i = 0; i < n; i += 997) mid += y[i];
        for (int i = 0; i < n; i++) x[i] = (float)(i % 7);
#pragma omp target update to(x[0:n])
      }
    }
  }
  double sum = 0;
  for (int i = 0; i < n; i++) sum += y[i];
  printf("mid %.1f sum %.1f y[12345] %.1f\n", mid, sum, y[12345]);
  return 0;
}
