// Reduction loops: the reduction variables are mapped tofrom on the combined target construct and
// combined on the device; compared with the same loops run serially.
// RUN: %ptxcc -fopenmp -O2 -fopenmp-offload-parallel-for=report %s -o %t 2> %t.report
// RUN: FileCheck %s --check-prefix=REPORT --implicit-check-not="warning: pointer" < %t.report
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY PTXRT_DEBUG=1 %t 2> %t.launches | FileCheck %s
// RUN: FileCheck %s --check-prefix=LAUNCH < %t.launches
// CHECK: sum: PASS
// CHECK: max and count: PASS
// CHECK: simd dot: PASS
#include <stdio.h>

#define N 200000
double v[N];
int w[N];

int main(void) {
  for (int i = 0; i < N; i++) {
    v[i] = (i % 17) * 0.25;
    w[i] = (i * 7919) % 100003;
  }
  double sum = 1.0, ref_sum = 1.0;
  // REPORT: reduction.c:[[@LINE+2]]: parallel for offloaded: target teams distribute parallel for{{$}}
  // LAUNCH: ptxrt: launch {{.*}}reduction.c:[[@LINE+1]]:{{[0-9]+}}: kernel
#pragma omp parallel for reduction(+:sum)
  for (int i = 0; i < N; i++)
    sum += v[i];
  for (int i = 0; i < N; i++)
    ref_sum += v[i];
  printf("sum: %s (%.2f, %.2f)\n", sum == ref_sum ? "PASS" : "FAIL", sum, ref_sum);

  int mx = -1, count = 0, ref_mx = -1, ref_count = 0;
  // REPORT: reduction.c:[[@LINE+2]]: parallel for offloaded: target teams distribute parallel for{{$}}
  // LAUNCH: ptxrt: launch {{.*}}reduction.c:[[@LINE+1]]:{{[0-9]+}}: kernel
#pragma omp parallel for reduction(max:mx) reduction(+:count) schedule(static)
  for (int i = 0; i < N; i++) {
    mx = w[i] > mx ? w[i] : mx;
    count += w[i] % 2;
  }
  for (int i = 0; i < N; i++) {
    ref_mx = w[i] > ref_mx ? w[i] : ref_mx;
    ref_count += w[i] % 2;
  }
  printf("max and count: %s\n", mx == ref_mx && count == ref_count ? "PASS" : "FAIL");

  double dot = 0, ref_dot = 0;
  // REPORT: reduction.c:[[@LINE+2]]: parallel for simd offloaded: target teams distribute parallel for simd
  // LAUNCH: ptxrt: launch {{.*}}reduction.c:[[@LINE+1]]:{{[0-9]+}}: kernel
#pragma omp parallel for simd reduction(+:dot)
  for (int i = 0; i < N; i++)
    dot += v[i] * v[i];
  for (int i = 0; i < N; i++)
    ref_dot += v[i] * v[i];
  printf("simd dot: %s\n", dot == ref_dot ? "PASS" : "FAIL");
  return !(sum == ref_sum && mx == ref_mx && count == ref_count && dot == ref_dot);
}
