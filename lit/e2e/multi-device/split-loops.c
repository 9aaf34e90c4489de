// -fptxcc-multi-device: every combined loop construct runs split over all devices, each device
// its contiguous part of the iterations, and the program gets the serial answer on 1..4
// devices: a loop with a non-zero lower bound and a step, collapse(2), a 64-bit and an
// unsigned counter, lastprivate (only the part with the last iteration writes it), a loop with
// fewer iterations than devices, and the same kernel run again.
// RUN: %ptxcc -fopenmp -fptxcc-multi-device -O2 %s -o %t
// RUN: env PTXRT_EMU_DEVICES=1 PTXSIM_DEVICES=1 %run %t | FileCheck %s
// RUN: env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 %run %t | FileCheck %s
// RUN: env PTXRT_EMU_DEVICES=3 PTXSIM_DEVICES=3 %run %t | FileCheck %s
// RUN: env PTXRT_EMU_DEVICES=4 PTXSIM_DEVICES=4 %run %t | FileCheck %s
// RUN: env PTXRT_EMU_DEVICES=3 PTXSIM_DEVICES=3 PTXRT_DEVICE_WEIGHTS=2,0,1 %run %t | FileCheck %s
// CHECK: strided: 0 mismatches
// CHECK-NEXT: collapse: 0 mismatches
// CHECK-NEXT: long: 0 mismatches
// CHECK-NEXT: unsigned: 0 mismatches
// CHECK-NEXT: lastprivate: 996
// CHECK-NEXT: tiny: 0 mismatches
// CHECK-NEXT: again: 0 mismatches
#include <stdio.h>

#define N 1000
#define R 37
#define C 53
static double a[N], b[N], ref[N];
static float m[R][C], mref[R][C];
static long l[N];
static unsigned u[N];

static int mismatches(const double *x, const double *y, int n) {
  int bad = 0;
  for (int i = 0; i < n; i++)
    bad += x[i] != y[i];
  return bad;
}

int main(void) {
  for (int i = 0; i < N; i++) {
    a[i] = i * 0.5;
    b[i] = -1;
    ref[i] = -1;
  }
  for (int i = 3; i < N - 2; i += 3)
    ref[i] = 2 * a[i] + 1;
#pragma omp target teams distribute parallel for map(to : a) map(tofrom : b)
  for (int i = 3; i < N - 2; i += 3)
    b[i] = 2 * a[i] + 1;
  printf("strided: %d mismatches\n", mismatches(b, ref, N));

  int bad = 0;
#pragma omp target teams distribute parallel for collapse(2) map(from : m)
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      m[i][j] = i * 100 + j;
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      bad += m[i][j] != i * 100 + j;
  printf("collapse: %d mismatches\n", bad);

  bad = 0;
#pragma omp target teams distribute parallel for map(from : l)
  for (long i = 0; i < N; i++)
    l[i] = i * i;
  for (long i = 0; i < N; i++)
    bad += l[i] != i * i;
  printf("long: %d mismatches\n", bad);

  bad = 0;
#pragma omp target teams distribute parallel for map(from : u)
  for (unsigned i = 10; i < N; i++)
    u[i] = 3 * i;
  for (unsigned i = 10; i < N; i++)
    bad += u[i] != 3 * i;
  printf("unsigned: %d mismatches\n", bad);

  int last = -1;
#pragma omp target teams distribute parallel for lastprivate(last) map(tofrom : b, last)
  for (int i = 0; i < N - 2; i++) {
    b[i] = i;
    last = i - 1;
  }
  printf("lastprivate: %d\n", last);

  for (int i = 0; i < N; i++)
    ref[i] = b[i];
  ref[0] = ref[1] = 7;
#pragma omp target teams distribute parallel for map(tofrom : b)
  for (int i = 0; i < 2; i++)
    b[i] = 7;
  printf("tiny: %d mismatches\n", mismatches(b, ref, N));

  for (int rep = 0; rep < 3; rep++) {
#pragma omp target teams distribute parallel for map(to : a) map(tofrom : b)
    for (int i = 0; i < N; i++)
      b[i] = a[i] + rep;
  }
  for (int i = 0; i < N; i++)
    ref[i] = a[i] + 2;
  printf("again: %d mismatches\n", mismatches(b, ref, N));
  return 0;
}
