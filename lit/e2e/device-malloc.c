// malloc and free in target regions: each iteration allocates its own scratch array (the CUDA
// driver's device heap on the GPU, the host's heap in the emulator) and frees it.
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t | FileCheck %s
// RUN: %ptxcc -fopenmp -O2 --emit=ptx %s -o - | FileCheck %s --check-prefix=PTX
// CHECK: 1606500
// PTX: .extern .func  (.param .b64 func_retval0) malloc
// PTX: .extern .func free
#include <stdio.h>
#include <stdlib.h>
int main(void) {
  long out[256];
#pragma omp target teams distribute parallel for map(from: out)
  for (int i = 0; i < 256; i++) {
    int n = 1 + i % 17;
    long *tmp = malloc(n * sizeof(long));
    for (int k = 0; k < n; k++) tmp[k] = (long)i * k;
    long s = 0; for (int k = 0; k < n; k++) s += tmp[k];
    free(tmp);
    out[i] = s;
  }
  long t = 0; for (int i = 0; i < 256; i++) t += out[i];
  printf("%ld\n", t);
  return 0;
}
