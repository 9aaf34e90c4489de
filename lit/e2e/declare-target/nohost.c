// Functions declared target for the device only (device_type(nohost), OpenMP 5.2 §7.8.2):
// clang emits no host body for them, and ptxcc makes device code from the host's, so ptxcc
// hands clang `device_type(any)` (padded, columns kept). A target region calls one directly,
// and through a `declare variant` for kind(nohost) (the host calls the base function).
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: %run %t | FileCheck %s
// RUN: rm -rf %t.d && mkdir -p %t.d && cd %t.d && %ptxcc -fopenmp -O2 -save-temps -c %s
// RUN: FileCheck --check-prefix=PRE %s < %t.d/nohost.i
// CHECK: direct: 1 2 3
// CHECK-NEXT: variant on the device: 11 12 13
// CHECK-NEXT: base on the host: 105 106 107
// CHECK-NEXT: PASS
// PRE: #pragma omp declare target to(dev_only) device_type(any)   {{$}}
// PRE: #pragma omp begin declare target device_type(any)   {{$}}
#include <stdio.h>

#define N 3

void dev_only(int *a);
#pragma omp declare target to(dev_only) device_type(nohost)

void dev_only(int *a) {
  for (int i = 0; i < N; i++)
    a[i] += i + 1;
}

#pragma omp begin declare target device_type(nohost)
void add_ten(int *a) {
  for (int i = 0; i < N; i++)
    a[i] += 10;
}
#pragma omp end declare target

#pragma omp declare variant(add_ten) match(device = {kind(nohost)})
void add_hundred(int *a) {
  for (int i = 0; i < N; i++)
    a[i] += 100;
}

int main(void) {
  int a[N] = {0, 0, 0}, bad = 0;
#pragma omp target map(tofrom : a)
  dev_only(a);
  printf("direct: %d %d %d\n", a[0], a[1], a[2]);
  bad += a[0] != 1 || a[2] != 3;
#pragma omp target map(tofrom : a)
  add_hundred(a);
  printf("variant on the device: %d %d %d\n", a[0], a[1], a[2]);
  bad += a[0] != 11 || a[2] != 13;
  for (int i = 0; i < N; i++)
    a[i] -= 6;
  add_hundred(a);
  printf("base on the host: %d %d %d\n", a[0], a[1], a[2]);
  bad += a[0] != 105 || a[2] != 107;
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
