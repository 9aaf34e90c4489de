// Local arrays of known size (fixed and variable length) are mapped tofrom implicitly; a shared
// scalar the loop writes gets map(tofrom) from the translation, so the host sees the write.
// RUN: %ptxcc -fopenmp -O2 -fopenmp-offload-parallel-for=report %s -o %t 2> %t.report
// RUN: FileCheck %s --check-prefix=REPORT --implicit-check-not="warning: pointer" < %t.report
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY PTXRT_DEBUG=1 %t 2> %t.launches | FileCheck %s
// RUN: FileCheck %s --check-prefix=LAUNCH < %t.launches
// CHECK: fixed-size local array: PASS
// CHECK: variable-length array: PASS
// CHECK: written shared scalar: PASS
#include <stdio.h>

#define N 4096

static int run(int n) {
  int a[N], b[N];
  double v[n];
  int ok = 1;
  for (int i = 0; i < N; i++) {
    a[i] = i;
    b[i] = -1;
  }
  // REPORT: local-array.c:[[@LINE+2]]: parallel for offloaded: target teams distribute parallel for{{$}}
  // LAUNCH: ptxrt: launch {{.*}}local-array.c:[[@LINE+1]]:{{[0-9]+}}: kernel
#pragma omp parallel for
  for (int i = 0; i < N; i++)
    b[i] = a[i] * a[i] % 1000;
  int fixed_ok = 1;
  for (int i = 0; i < N; i++)
    fixed_ok &= b[i] == i * i % 1000;
  printf("fixed-size local array: %s\n", fixed_ok ? "PASS" : "FAIL");

  for (int i = 0; i < n; i++)
    v[i] = i;
  // REPORT: local-array.c:[[@LINE+2]]: parallel for offloaded: target teams distribute parallel for{{$}}
  // LAUNCH: ptxrt: launch {{.*}}local-array.c:[[@LINE+1]]:{{[0-9]+}}: kernel
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    v[i] = v[i] * 0.5 + 1.0;
  int vla_ok = 1;
  for (int i = 0; i < n; i++)
    vla_ok &= v[i] == i * 0.5 + 1.0;
  printf("variable-length array: %s\n", vla_ok ? "PASS" : "FAIL");

  int found = 0;
  // REPORT: local-array.c:[[@LINE+2]]: parallel for offloaded: target teams distribute parallel for (map(tofrom: found) added: the loop writes a shared scalar)
  // LAUNCH: ptxrt: launch {{.*}}local-array.c:[[@LINE+1]]:{{[0-9]+}}: kernel
#pragma omp parallel for
  for (int i = 0; i < N; i++)
    if (b[i] == 961) /* 31 * 31 */
      found = 1;
  printf("written shared scalar: %s\n", found == 1 ? "PASS" : "FAIL");
  ok = fixed_ok && vla_ok && found == 1;
  return ok;
}

int main(void) { return !run(3000); }
