/* A 2-D 5-point stencil iterated inside a target data region, swapping the two grids. */
#include <stdio.h>
#include <stdlib.h>
int main(void) {
  int nx = 200, ny = 150, iters = 50;
  double *a = malloc(nx * ny * sizeof *a), *b = malloc(nx * ny * sizeof *b);
  for (int j = 0; j < ny; j++)
    for (int i = 0; i < nx; i++) a[j * nx + i] = b[j * nx + i] = (i == 0 || j == 0) ? 1.0 : 0.0;
#pragma omp target data map(tofrom: a[0:nx * ny]) map(to: b[0:nx * ny])
  for (int it = 0; it < iters; it++) {
    double *src = it % 2 ? b : a, *dst = it % 2 ? a : b;
#pragma omp target teams distribute parallel for collapse(2)
    for (int j = 1; j < ny - 1; j++)
      for (int i = 1; i < nx - 1; i++)
        dst[j * nx + i] = 0.25 * (src[j * nx + i - 1] + src[j * nx + i + 1] + src[(j - 1) * nx + i] +
                                  src[(j + 1) * nx + i]);
  }
  double sum = 0;
  for (int k = 0; k < nx * ny; k++) sum += a[k];
  printf("sum %.9f a[3][3] %.9f a[10][20] %.9f\n", sum, a[3 * nx + 3], a[10 * nx + 20]);
  return 0;
}
