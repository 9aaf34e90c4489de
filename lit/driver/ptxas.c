// Where the CUDA toolkit's ptxas is installed, the PTX ptxcc emits assembles for the sm it names.
// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: %ptxcc --emit=ptx -O2 %s -o %t/k90.ptx
// RUN: ptxas -arch=sm_90 %t/k90.ptx -o %t/k90.cubin
// RUN: %ptxcc --emit=ptx -O0 %s -o %t/k90-O0.ptx
// RUN: ptxas -arch=sm_90 %t/k90-O0.ptx -o %t/k90-O0.cubin
// RUN: %ptxcc --emit=ptx -O2 --offload-arch=sm_80 %s -o %t/k80.ptx
// RUN: ptxas -arch=sm_80 %t/k80.ptx -o %t/k80.cubin
// RUN: %ptxcc --emit=ptx -O2 %S/../../examples/saxpy.c -o %t/saxpy.ptx
// RUN: ptxas -arch=sm_90 %t/saxpy.ptx -o %t/saxpy.cubin
#include <math.h>
void kernel(int n, double *x) {
#pragma omp target teams distribute parallel for map(tofrom : x[0:n])
  for (int i = 0; i < n; i++)
    x[i] = sin(x[i]) + pow(x[i], 2.0);
}
