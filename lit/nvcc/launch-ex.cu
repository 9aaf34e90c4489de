// nvcc's program on ptxsim: cudaLaunchKernelEx (cudaLaunchKernelExC) with attributes that are
// hints or that stream order satisfies, the ones ptxsim refuses by name (cooperative launch, a
// cluster), cudaMemsetAsync in stream order, and a kernel that waits on its predecessor
// (griddepcontrol, programmatic dependent launch).
// REQUIRES: nvcc
// RUN: %nvcc -O2 -std=c++17 -gencode arch=compute_90,code=compute_90 %s -o %t
// RUN: %cudart-ptxsim %t 2>&1 | FileCheck %s
#include <cuda_runtime.h>
#include <stdio.h>

#define CHECK(call)                                                                              \
  do {                                                                                           \
    cudaError_t e_ = (call);                                                                     \
    if (e_ != cudaSuccess) {                                                                     \
      printf("%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_));              \
      return 1;                                                                                  \
    }                                                                                            \
  } while (0)

__global__ void fill(int n, int *p, int v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] += v;
  // Lets the next kernel of the stream start early (a no-op where it starts after this one).
  asm volatile("griddepcontrol.launch_dependents;");
}

__global__ void add_next(int n, const int *p, int *q) {
  // Waits until the previous grid's writes are visible.
  asm volatile("griddepcontrol.wait;" ::: "memory");
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // Into another array: reading p[i + 1] while its own thread updates it would be a race.
  if (i < n)
    q[i] = i + 1 < n ? p[i] + (p[i + 1] & 0xff) : p[i];
}

int main() {
  const int n = 1000;
  int *d = nullptr, *e = nullptr, h[n];
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  CHECK(cudaMalloc(&d, n * sizeof(int)));
  CHECK(cudaMalloc(&e, n * sizeof(int)));
  // Every byte 1: each int 0x01010101.
  CHECK(cudaMemsetAsync(d, 1, n * sizeof(int), s));

  cudaLaunchAttribute attrs[3];
  attrs[0].id = cudaLaunchAttributePriority;
  attrs[0].val.priority = 1;
  attrs[1].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attrs[1].val.programmaticStreamSerializationAllowed = 1;
  attrs[2].id = cudaLaunchAttributeClusterDimension;
  attrs[2].val.clusterDim.x = 1;
  attrs[2].val.clusterDim.y = 1;
  attrs[2].val.clusterDim.z = 1;
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3((n + 127) / 128);
  cfg.blockDim = dim3(128);
  cfg.stream = s;
  cfg.attrs = attrs;
  cfg.numAttrs = 3;
  CHECK(cudaLaunchKernelEx(&cfg, fill, n, d, 5));
  CHECK(cudaLaunchKernelEx(&cfg, add_next, n, (const int *)d, e));
  CHECK(cudaMemcpyAsync(h, e, sizeof h, cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamSynchronize(s));
  int bad = 0;
  for (int i = 0; i < n; i++) {
    int v = 0x01010101 + 5;
    int want = i + 1 < n ? v + (v & 0xff) : v;
    bad += h[i] != want;
  }
  // CHECK: launch attributes: 0 wrong
  printf("launch attributes: %d wrong\n", bad);
  fflush(stdout);

  // A cooperative launch and a cluster of two blocks are refused, each by name.
  attrs[0].id = cudaLaunchAttributeCooperative;
  attrs[0].val.cooperative = 1;
  cfg.numAttrs = 1;
  // CHECK: ptxsim: cudaLaunchKernelExC: cudaLaunchAttributeCooperative (cooperative launches) is not supported
  // CHECK-NEXT: cooperative: cudaErrorNotSupported
  printf("cooperative: %s\n", cudaGetErrorName(cudaLaunchKernelEx(&cfg, fill, n, d, 1)));
  fflush(stdout);
  attrs[0].id = cudaLaunchAttributeClusterDimension;
  attrs[0].val.clusterDim.x = 2;
  attrs[0].val.clusterDim.y = 1;
  attrs[0].val.clusterDim.z = 1;
  // CHECK: ptxsim: cudaLaunchKernelExC: cudaLaunchAttributeClusterDimension (thread block clusters) is not supported
  // CHECK-NEXT: cluster: cudaErrorNotSupported
  printf("cluster: %s\n", cudaGetErrorName(cudaLaunchKernelEx(&cfg, fill, n, d, 1)));
  fflush(stdout);
  // Nothing ran: d is as fill left it.
  CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  // CHECK: after the refusals: 5 5
  printf("after the refusals: %d %d\n", h[0] - 0x01010101, h[n - 1] - 0x01010101);
  return 0;
}
