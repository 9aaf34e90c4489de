// long double (x86's 80-bit type) and __float128 have no GPU counterpart: a located error, once
// per source line, status 1 — LLVM's NVPTX back end aborted on them ("Undefined external symbol").
// RUN: not %ptxcc -fopenmp -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %python %S/Inputs/expect-status.py 1 -- %ptxcc -fopenmp -c %s -o /dev/null
// CHECK-NOT: LLVM ERROR
long double sum(int n) {
  long double s = 0;
  // CHECK: long-double-device.c:[[@LINE+1]]:{{[0-9]+}}: error: ptxcc does not support 'long double' (or __float128) in target regions
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += i;
  return s;
}
