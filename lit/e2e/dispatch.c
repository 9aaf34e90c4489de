// The `dispatch` construct (OpenMP 5.1; OpenMP 5.2 section 7.6), which clang 19 cannot compile
// and ptxcc writes out itself: a call under `dispatch` of a function with a variant for
// construct={dispatch} calls the variant, its need_device_ptr arguments converted to device
// addresses (OpenMP 5.2 section 7.5.1, adjust_args), unless novariants or nocontext is true;
// device(d) is the default device during the call; depend orders it after sibling tasks.
// RUN: %ptxcc -fopenmp -O1 %s -o %t
// RUN: %run %t | FileCheck %s
// CHECK: plain call: base, host copy 1
// CHECK-NEXT: dispatch: variant on the device copy, host copy 1 until update, then 11
// CHECK-NEXT: novariants(1): base; nocontext(0): variant
// CHECK-NEXT: is_device_ptr: variant got the device address as it was
// CHECK-NEXT: device(7) during the call, 0 after; depend: saw 42
#include <omp.h>
#include <stdio.h>
#define N 128

static int calls_base, calls_variant, seen_device, seen_x;

int scale_dev(int *a, int n);
#pragma omp declare variant(scale_dev) match(construct = {dispatch}) adjust_args(need_device_ptr : a)
int scale(int *a, int n) {
  calls_base++;
  for (int i = 0; i < n; i++)
    a[i] += 1;
  return 1;
}

// Called with the device address of the host's `a`: it runs a kernel on that memory.
int scale_dev(int *a, int n) {
  calls_variant++;
#pragma omp target teams distribute parallel for is_device_ptr(a)
  for (int i = 0; i < n; i++)
    a[i] += 10;
  return 2;
}

int probe_dev(int x);
#pragma omp declare variant(probe_dev) match(construct = {dispatch})
int probe(int x) { return -x; }
int probe_dev(int x) {
  seen_device = omp_get_default_device();
  seen_x = x;
  return x;
}

int main(void) {
  int a[N], r;
  for (int i = 0; i < N; i++)
    a[i] = 0;
  r = scale(a, N);
  printf("plain call: %s, host copy %d\n", r == 1 ? "base" : "variant", a[5]);

#pragma omp target enter data map(to : a[0 : N])
#pragma omp dispatch
  r = scale(a, N);
  int before = a[5];
#pragma omp target update from(a[0 : N])
  printf("dispatch: %s on the device copy, host copy %d until update, then %d\n",
         r == 2 ? "variant" : "base", before, a[5]);

  int one = 1, zero = 0;
#pragma omp dispatch novariants(one)
  r = scale(a, N);
  int r2;
#pragma omp dispatch nocontext(zero)
  r2 = scale(a, N);
  printf("novariants(1): %s; nocontext(0): %s\n", r == 1 ? "base" : "variant",
         r2 == 2 ? "variant" : "base");

  int *d = omp_get_mapped_ptr(a, omp_get_default_device());
  int *got = 0;
#pragma omp target map(from : got) is_device_ptr(d)
  got = d;
  calls_variant = 0;
#pragma omp dispatch is_device_ptr(d)
  scale(d, N);
  printf("is_device_ptr: %s\n", calls_variant == 1 && got == d
                                    ? "variant got the device address as it was"
                                    : "WRONG");
#pragma omp target exit data map(delete : a[0 : N])

  int x = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
  {
#pragma omp task depend(out : x)
    x = 42;
#pragma omp dispatch device(7) depend(in : x)
    probe(x);
  }
  printf("device(7) during the call, %d after; depend: saw %d\n", omp_get_default_device(),
         seen_x);
  return seen_device == 7 ? 0 : 1;
}
