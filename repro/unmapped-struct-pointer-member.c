// map(to: s) copies the struct, but not the array its pointer member points to: in the kernel
// s.v is the host address. On a GPU the writes fault (illegal address); on the emulator they
// silently land in host memory, so the program "works" and prints 5 instead of stopping.
// Expected: a runtime error naming s.v (or at least a fault), as on the GPU.
#include <stdio.h>
#include <stdlib.h>
typedef struct { int n; double *v; } vec;
int main(void) {
  vec s = {100, malloc(100 * sizeof(double))};
#pragma omp target teams distribute parallel for map(to : s)
  for (int i = 0; i < s.n; i++)
    s.v[i] = i;
  printf("%g\n", s.v[5]);
  return 0;
}
