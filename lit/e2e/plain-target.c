// A plain `target` region (one thread on the device) running sequential code: a loop with a carried
// dependence (prefix sum), a local array, a function call, and scalar results mapped back.
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t | FileCheck %s
// CHECK: initial device on device: 0
// CHECK: PASS
#include <omp.h>
#include <stdio.h>

static long fib(int n) {
  long a = 0, b = 1;
  for (int i = 0; i < n; i++) {
    long t = a + b;
    a = b;
    b = t;
  }
  return a;
}

int main(void) {
  enum { N = 1000 };
  static long x[N];
  for (int i = 0; i < N; i++)
    x[i] = i % 17;
  long f = 0, last = 0;
  int initial = -1;
#pragma omp target map(tofrom : x, f, last, initial)
  {
    long local[8];
    for (int k = 0; k < 8; k++)
      local[k] = k * k;
    for (int i = 1; i < N; i++)
      x[i] += x[i - 1];
    f = fib(50) + local[7];
    last = x[N - 1];
    initial = omp_is_initial_device();
  }
  long want = 0, ok = 1;
  for (int i = 0; i < N; i++) {
    want += i % 17;
    ok &= x[i] == want;
  }
  ok &= f == 12586269025L + 49 && last == want && initial == 0;
  printf("initial device on device: %d\n%s\n", initial, ok ? "PASS" : "FAIL");
  return !ok;
}
