// A collapse(2) grid-stride loop recovers i and j without a division per element: the signed
// 64-bit division clang writes for `i = iv / m` (div.s64, or its 32-bit bypass) is gone from the
// PTX; the start's and the step's quotients are unsigned divisions before the loop.
// RUN: %ptxcc -fopenmp -O2 --emit=ptx %s -o - | FileCheck %s
// CHECK: .entry __omp_offloading_{{.*}}_sweep_l[[#@LINE+6]](
// CHECK-NOT: div.s64
// CHECK-NOT: rem.s64
// CHECK: div.u64
// CHECK: ret;
void sweep(const double *restrict src, double *restrict dst, long n, long m) {
#pragma omp target teams distribute parallel for collapse(2)
  for (long i = 1; i <= n; i++)
    for (long j = 1; j <= m; j++)
      dst[i * (m + 2) + j] = src[i * (m + 2) + j - 1] + src[i * (m + 2) + j + 1];
}
