// 'declare variant' selecting on device traits (OpenMP 5.2 §7.5): on the device a call of the
// base function runs the variant whose device selector the GPU matches (arch(nvptx64),
// arch(nvptx, nvptx64), kind(gpu), kind(nohost)), in a target region and in a declare target
// function; the host keeps the base function; a variant for another device (arch(amdgcn))
// is chosen nowhere. A variant may call its base function.
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: %run %t | FileCheck %s
// CHECK: device: arch 1, arch list 2, gpu 3, nohost 4, amdgcn 0, in a function 1, wraps 110
// CHECK-NEXT: host: arch 0, arch list 0, gpu 0, nohost 0, amdgcn 0, in a function 0, wraps 10
// CHECK-NEXT: PASS
#include <stdio.h>

#pragma omp declare target
int arch_gpu(void) { return 1; }
#pragma omp declare variant(arch_gpu) match(device = {arch(nvptx64)})
int by_arch(void) { return 0; }

int list_gpu(void) { return 2; }
#pragma omp declare variant(list_gpu) match(device = {arch(nvptx, nvptx64)})
int by_list(void) { return 0; }

int kind_gpu(void) { return 3; }
#pragma omp declare variant(kind_gpu) match(device = {kind(gpu)})
int by_kind(void) { return 0; }

int nohost(void) { return 4; }
#pragma omp declare variant(nohost) match(device = {kind(nohost)})
int by_nohost(void) { return 0; }

int amd(void) { return 5; }
#pragma omp declare variant(amd) match(device = {arch(amdgcn)})
int by_amdgcn(void) { return 0; }

int scaled(int x);
int scaled_gpu(int x) { return 100 + scaled(x); }
#pragma omp declare variant(scaled_gpu) match(device = {kind(gpu)})
int scaled(int x) { return 10 * x; }

int helper(void) { return by_arch(); }
#pragma omp end declare target

int main(void) {
  int d[7], h[7];
#pragma omp target map(from : d)
  {
    d[0] = by_arch();
    d[1] = by_list();
    d[2] = by_kind();
    d[3] = by_nohost();
    d[4] = by_amdgcn();
    d[5] = helper();
    d[6] = scaled(1);
  }
  h[0] = by_arch();
  h[1] = by_list();
  h[2] = by_kind();
  h[3] = by_nohost();
  h[4] = by_amdgcn();
  h[5] = helper();
  h[6] = scaled(1);
  const char *fmt = "%s: arch %d, arch list %d, gpu %d, nohost %d, amdgcn %d, in a function %d, wraps %d\n";
  printf(fmt, "device", d[0], d[1], d[2], d[3], d[4], d[5], d[6]);
  printf(fmt, "host", h[0], h[1], h[2], h[3], h[4], h[5], h[6]);
  int ok = d[0] == 1 && d[1] == 2 && d[2] == 3 && d[3] == 4 && d[4] == 0 && d[5] == 1 && d[6] == 110 &&
           h[0] == 0 && h[6] == 10;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return !ok;
}
