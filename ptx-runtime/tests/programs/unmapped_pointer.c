/* A pointer used in a target region without a map clause: x's data is never mapped. With separate
 * device memory this must be the runtime's "not mapped" error (exit 1), not a fault on the GPU or
 * a silent read of host memory on the emulator. PTXRT_UNMAPPED_POINTERS=pass restores OpenMP
 * 5.1's pass-through of the host address, which the emulator can dereference. */
#include <stdio.h>
#include <stdlib.h>
int main(void) {
  int n = 1000;
  double *x = malloc(n * sizeof *x);
  double *y = malloc(n * sizeof *y);
  for (int i = 0; i < n; i++) { x[i] = i; y[i] = 0; }
#pragma omp target teams distribute parallel for map(tofrom: y[0:n])
  for (int i = 0; i < n; i++) y[i] = 2 * x[i];
  printf("%s\n", y[10] == 20 ? "ok" : "FAIL");
  return y[10] != 20;
}
