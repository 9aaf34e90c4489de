// What ptxsim says about an nvcc program it cannot run, or that goes wrong: a fat binary with
// a cubin and no PTX, a kernel's illegal address (sticky, as on a GPU), a runtime call ptxsim
// does not have (refused by the dynamic linker, by name, before main).
// REQUIRES: nvcc
// RUN: %nvcc -O2 -gencode arch=compute_90,code=compute_90 %s -o %t
// RUN: %cudart-ptxsim %t fault 2>&1 | FileCheck %s --check-prefix=FAULT
// RUN: %nvcc -O2 -gencode arch=compute_90,code=sm_90 %s -o %t.cubin
// RUN: %cudart-ptxsim %t.cubin launch 2>&1 | FileCheck %s --check-prefix=CUBIN
// RUN: %nvcc -O2 -gencode arch=compute_90,code=compute_90 -DMANAGED %s -o %t.managed
// RUN: not %cudart-ptxsim %t.managed launch 2>&1 | FileCheck %s --check-prefix=MISSING
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>

__global__ void store(int *p, long at) { p[at] = 1; }

int main(int argc, char **argv) {
  int *d = nullptr;
#ifdef MANAGED
  cudaMallocManaged(&d, 64);
#else
  cudaMalloc(&d, 64 * sizeof(int));
#endif
  if (argc > 1 && !strcmp(argv[1], "fault")) {
    store<<<1, 1>>>(d, 1 << 20);
    // (stdout is a pipe: printf's lines come after ptxsim's, in any order)
    // FAULT-DAG: ptxsim: kernel fault: {{.*}} outside every device allocation {{.*}}in _Z5storePil at PTX line
    cudaError_t e = cudaDeviceSynchronize();
    // FAULT-DAG: synchronize: cudaErrorIllegalAddress
    printf("synchronize: %s\n", cudaGetErrorName(e));
    // FAULT-DAG: then: cudaErrorIllegalAddress
    printf("then: %s\n", cudaGetErrorName(cudaMemcpy(d, d, 4, cudaMemcpyDeviceToDevice)));
    return 0;
  }
  store<<<1, 1>>>(d, 0);
  // CUBIN: ptxsim: the program's fat binary: no PTX for sm_90 or older in the fat binary (it holds a cubin for sm_90): ptxsim runs PTX only; build with nvcc -gencode arch=compute_90,code=compute_90
  // CUBIN: launch: cudaErrorNoKernelImageForDevice
  printf("launch: %s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
// MISSING: undefined symbol: cudaMallocManaged
