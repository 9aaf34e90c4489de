// nvcc's program on ptxsim: the registration ABI, <<<>>> launches and cudaLaunchKernel, memory,
// copies to and from a __device__ variable, events, device properties and occupancy, checked
// against the same computation on the host. Built with nvcc's default (zstd-compressed) PTX,
// and with LZ4-compressed and uncompressed PTX in the fat binary.
// REQUIRES: nvcc
// RUN: %nvcc -O2 -gencode arch=compute_90,code=compute_90 %s -o %t
// RUN: %cudart-ptxsim %t | FileCheck %s
// RUN: %nvcc -O2 -gencode arch=compute_90,code=compute_90 -Xfatbin -compress-mode=speed %s -o %t.lz4
// RUN: %cudart-ptxsim %t.lz4 | FileCheck %s
// RUN: %nvcc -O2 -gencode arch=compute_90,code=compute_90 -Xfatbin -compress-mode=none %s -o %t.plain
// RUN: %cudart-ptxsim %t.plain | FileCheck %s
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                                              \
  do {                                                                                           \
    cudaError_t e_ = (call);                                                                     \
    if (e_ != cudaSuccess) {                                                                     \
      printf("%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_));              \
      return 1;                                                                                  \
    }                                                                                            \
  } while (0)

__device__ float scale;
__constant__ int offsets[4];

__global__ void axpb(int n, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = scale * x[i] + y[i] + offsets[i % 4];
}

// Sum of x in each block, with shared memory and barriers.
__global__ void block_sums(int n, const float *x, float *sums) {
  __shared__ float part[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  part[threadIdx.x] = i < n ? x[i] : 0.0f;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (threadIdx.x < s)
      part[threadIdx.x] += part[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    sums[blockIdx.x] = part[0];
}

int main() {
  const int n = 1000, bs = 256, nb = (n + bs - 1) / bs;
  float *x = (float *)malloc(n * sizeof(float)), *y = (float *)malloc(n * sizeof(float));
  float *ref = (float *)malloc(n * sizeof(float)), sums[nb];
  for (int i = 0; i < n; i++) {
    x[i] = (float)(i % 17);
    y[i] = (float)(i % 5);
  }
  const float a = 2.0f;
  const int offs[4] = {1, 2, 3, 4};
  for (int i = 0; i < n; i++)
    ref[i] = a * x[i] + y[i] + offs[i % 4];

  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  // CHECK: device sm_90, warp 32, 1024 threads per block
  printf("device sm_%d%d, warp %d, %d threads per block\n", prop.major, prop.minor, prop.warpSize,
         prop.maxThreadsPerBlock);
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  // CHECK: SMs agree: 1
  printf("SMs agree: %d\n", sms == prop.multiProcessorCount && sms > 0);

  float *dx, *dy, *dsums;
  CHECK(cudaMalloc(&dx, n * sizeof(float)));
  CHECK(cudaMalloc(&dy, n * sizeof(float)));
  CHECK(cudaMalloc(&dsums, nb * sizeof(float)));
  CHECK(cudaMemcpy(dx, x, n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dy, y, n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpyToSymbol(scale, &a, sizeof a));
  CHECK(cudaMemcpyToSymbol(offsets, offs, sizeof offs));
  float back = 0;
  CHECK(cudaMemcpyFromSymbol(&back, scale, sizeof back));
  // CHECK: scale on the device: 2
  printf("scale on the device: %g\n", back);

  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaEventRecord(start, 0));
  axpb<<<nb, bs>>>(n, dx, dy);
  CHECK(cudaGetLastError());
  CHECK(cudaEventRecord(stop, 0));
  CHECK(cudaEventSynchronize(stop));
  float ms = -1;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  // CHECK: elapsed time measured: 1
  printf("elapsed time measured: %d\n", ms >= 0);
  CHECK(cudaMemcpy(y, dy, n * sizeof(float), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; i++)
    bad += y[i] != ref[i];
  // CHECK: axpb: 0 wrong
  printf("axpb: %d wrong\n", bad);

  // The same launch without <<<>>>: cudaLaunchKernel with the kernel's host stub.
  int nn = n;
  void *args[] = {&nn, &dx, &dsums};
  CHECK(cudaLaunchKernel((const void *)block_sums, dim3(nb), dim3(bs), args, 0, 0));
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(sums, dsums, sizeof sums, cudaMemcpyDeviceToHost));
  float total = 0, expect = 0;
  for (int b = 0; b < nb; b++)
    total += sums[b];
  for (int i = 0; i < n; i++)
    expect += x[i];
  // CHECK: block sums: 7979 (host 7979)
  printf("block sums: %g (host %g)\n", total, expect);

  int blocks = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, block_sums, bs, 0));
  // CHECK: resident blocks of 256 threads: 8
  printf("resident blocks of %d threads: %d\n", bs, blocks);
  cudaFuncAttributes fa;
  CHECK(cudaFuncGetAttributes(&fa, block_sums));
  // CHECK: block_sums: 1024 bytes of shared memory, up to 1024 threads
  printf("block_sums: %zu bytes of shared memory, up to %d threads\n", fa.sharedSizeBytes, fa.maxThreadsPerBlock);
  // The runtime header's template, made of cudaFuncGetAttributes, attributes and occupancy.
  int min_grid = 0, best = 0;
  CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &best, axpb));
  // CHECK: best block: 1024 threads, 264 blocks fill the device
  printf("best block: %d threads, %d blocks fill the device\n", best, min_grid);

  // A block the device cannot run: the launch's error, then no error.
  axpb<<<1, 2048>>>(n, dx, dy);
  cudaError_t e = cudaGetLastError();
  // CHECK: too large a block: cudaErrorInvalidConfiguration, then cudaSuccess
  printf("too large a block: %s, then %s\n", cudaGetErrorName(e), cudaGetErrorName(cudaGetLastError()));

  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dy));
  CHECK(cudaFree(dsums));
  // CHECK: done
  printf("done\n");
  return 0;
}
