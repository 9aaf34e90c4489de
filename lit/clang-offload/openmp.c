// Clang 19's own OpenMP offloading (LLVM's DeviceRTL, libomptarget's CUDA plugin) on ptxsim,
// built by scripts/clang-ptxsim: ptxsim's ptxas and nvlink keep the PTX in the ELF files
// Clang's tools expect, libomptarget reads each kernel's environment from the image's symbol
// table (its execution mode, its reduction buffer) and loads it through libptxsim.so as
// libcuda.so. Three kinds of kernel, each checked against the host's answer: an SPMD loop with
// a reduction across teams (which needs the launch environment the image describes), a
// generic-mode region (teams, then a parallel loop inside: run as SPMD it would be wrong), and
// a `declare target` global the host updates. PTXSIM_STATS shows that they ran on ptxsim.
// REQUIRES: clang-offload
// RUN: %clang-ptxsim -O2 %s -o %t
// RUN: %cudart-ptxsim %run PTXSIM_STATS=1 %t > %t.out 2> %t.err
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.err
// CHECK: reduction: ok
// CHECK: generic: ok
// CHECK: global: ok
// CHECK: PASS
// STATS: ptxsim: kernel
// STATS-COUNT-3: ptxsim: __omp_offloading_{{[0-9a-f]+}}_{{[0-9a-f]+}}_main_l{{[0-9]+}} 1 {{[0-9]+}}
#include <stdio.h>

#define N 4096
static double a[N];
static int rows[64][65];
#pragma omp declare target
int scale = 1;
#pragma omp end declare target

int main(void) {
  for (int i = 0; i < N; i++)
    a[i] = i % 7;
  double sum = 0, want = 0;
  for (int i = 0; i < N; i++)
    want += a[i] * 2;
#pragma omp target teams distribute parallel for reduction(+ : sum) map(to : a)
  for (int i = 0; i < N; i++)
    sum += a[i] * 2;
  printf("reduction: %s (%g, want %g)\n", sum == want ? "ok" : "WRONG", sum, want);

  // Generic mode: the team's code runs once per team, its parallel loop on all threads.
#pragma omp target teams distribute map(from : rows)
  for (int r = 0; r < 64; r++) {
    int base = r * 1000;
#pragma omp parallel for
    for (int c = 0; c < 65; c++)
      rows[r][c] = base + c;
  }
  int bad = 0;
  for (int r = 0; r < 64; r++)
    for (int c = 0; c < 65; c++)
      bad += rows[r][c] != r * 1000 + c;
  printf("generic: %s (%d wrong)\n", bad ? "WRONG" : "ok", bad);

  scale = 3;
#pragma omp target update to(scale)
  int got = 0;
#pragma omp target map(from : got)
  got = scale * 14;
  printf("global: %s (%d)\n", got == 42 ? "ok" : "WRONG", got);
  int ok = sum == want && !bad && got == 42;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return !ok;
}
