/* Pointers that reach a target region without a map clause and are still valid there: mapped by
 * an enclosing data region, device memory (omp_target_alloc) with and without is_device_ptr, a
 * use_device_ptr result, NULL, a pointer into an entered section. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
int main(void) {
  int n = 1000, bad = 0;
  double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), *nul = NULL;
  for (int i = 0; i < n; i++) { x[i] = i; y[i] = 0; }
  /* 1: enclosing target data maps x */
#pragma omp target data map(to: x[0:n]) map(from: y[0:n])
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++) y[i] = 2 * x[i];
  }
  bad += y[10] != 20;
  /* 2: device memory without is_device_ptr, and with it */
  double *d = omp_target_alloc(n * sizeof *d, omp_get_default_device());
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++) d[i] = 3 * i;
#pragma omp target teams distribute parallel for is_device_ptr(d) map(from: y[0:n])
  for (int i = 0; i < n; i++) y[i] = d[i] + 1;
  bad += y[10] != 31;
  /* 3: use_device_ptr, then a region using the device pointer */
#pragma omp target data map(tofrom: x[0:n])
  {
#pragma omp target data use_device_ptr(x)
    {
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; i++) x[i] = -i;
    }
  }
  bad += x[10] != -10;
  /* 4: NULL stays NULL; the base of a mapped section */
  int isnull = 0;
#pragma omp target map(from: isnull)
  isnull = nul == NULL;
  bad += !isnull;
#pragma omp target enter data map(to: x[5:10])
  double v = 0;
#pragma omp target map(from: v)
  v = x[7];
#pragma omp target exit data map(delete: x[5:10])
  bad += v != -7;
  omp_target_free(d, omp_get_default_device());
  printf("%s\n", bad ? "FAIL" : "ok");
  return bad;
}
