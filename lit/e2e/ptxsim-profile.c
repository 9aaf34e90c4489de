// ptxsim's profile (PTXSIM_PROFILE; ptx-sim/README.md): each kernel's basic blocks by the warp
// instructions they issued. Thread i runs i % 32 trips of an inner loop the user keeps rolled
// (#pragma clang loop unroll(disable), which ptxcc's device code honours): each warp of 32
// issues the loop's body 31 times, with 496 / 31 = 16 lanes active on average; two warps and
// two launches make 124 issues.
// REQUIRES: ptxsim
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: rm -f %t.prof && env PTXSIM_PROFILE=%t.prof %run %t | FileCheck %s --check-prefix=OUT
// OUT: triangle: ok
// RUN: FileCheck %s --input-file %t.prof
// CHECK: ptxsim profile: the basic blocks of each kernel by the warp instructions they issued
// CHECK: kernel __omp_offloading_{{.*}}_triangle_l{{[0-9]+}} (device 0): 2 launches, [[#]] warp instructions
// CHECK-NEXT: share   warp instrs   lanes      issues  function: PTX lines
// CHECK-NEXT: {{[0-9.]+}}% [[#]] 16.0 124  __omp_offloading_{{.*}}_triangle_l{{[0-9]+}}: [[#]]-[[#]]
// A path that cannot be written is an error at exit, not silence.
// RUN: env PTXSIM_PROFILE=/nonexistent/dir/p %run %t 2>&1 | FileCheck %s --check-prefix=BADPATH
// BADPATH: ptxsim: error: cannot write PTXSIM_PROFILE to /nonexistent/dir/p
#include <stdio.h>

#define N 64

static void triangle(int *restrict out, int n) {
#pragma omp target teams distribute parallel for map(from : out[0:n])
  for (int i = 0; i < n; i++) {
    int s = 0;
#pragma clang loop unroll(disable)
    for (int k = 0; k < i % 32; k++)
      s += k ^ i;
    out[i] = s;
  }
}

int main(void) {
  int out[N], ok = 1;
  for (int r = 0; r < 2; r++) {
    triangle(out, N);
    for (int i = 0; i < N; i++) {
      int s = 0;
      for (int k = 0; k < i % 32; k++)
        s += k ^ i;
      ok &= out[i] == s;
    }
  }
  printf("triangle: %s\n", ok ? "ok" : "WRONG");
  return !ok;
}
