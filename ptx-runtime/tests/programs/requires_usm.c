/* '#pragma omp requires unified_shared_memory': clang 19 records it in an offload entry, and the
 * runtime then passes pointers without a map as host addresses (which the emulator can read). */
#include <stdio.h>
#include <stdlib.h>
#pragma omp requires unified_shared_memory
int main(void) {
  int n = 1000;
  double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
  for (int i = 0; i < n; i++) { x[i] = i; y[i] = 0; }
#pragma omp target teams distribute parallel for map(tofrom: y[0:n])
  for (int i = 0; i < n; i++) y[i] = 2 * x[i];
  printf("%s\n", y[10] == 20 ? "ok" : "FAIL");
  return y[10] != 20;
}
