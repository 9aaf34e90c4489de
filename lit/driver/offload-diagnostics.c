// What the offload passes reject is reported at the user's source position, clang-style, with
// exit status 1 and no object; -O0 and -O2 alike (line tables are on for the passes either way).
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: not %ptxcc -c %s 2>&1 | FileCheck %s
// RUN: not %ptxcc -c -O2 %s 2>&1 | FileCheck %s
// RUN: %python %S/Inputs/expect-status.py 1 -- %ptxcc -c %s
// RUN: not %ptxcc %s -o prog 2>&1 | FileCheck %s
// RUN: ls | count 0
// CHECK: offload-diagnostics.c:[[@LINE+8]]:12: error: ptxcc does not support indirect calls (function pointers) in target regions
// CHECK-NOT: internal error
// CHECK-NOT: panicked
static int twice(int x) { return 2 * x; }
int run(int n, int *a) {
  int (*f)(int) = twice;
#pragma omp target teams distribute parallel for map(tofrom : a[0:n])
  for (int i = 0; i < n; i++)
    a[i] = f(a[i]);
  return 0;
}
