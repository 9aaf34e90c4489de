// More shapes of a private accumulator reduced over an inner loop (OpenACC 3.3 §2.9.11 private,
// §2.5.15 reduction): serial loop over a worker loop, a serial region's gang loop, an inner loop
// with no level (auto) in serial and parallel, a kernels gang loop, and two levels of private
// accumulators (gang over worker over vector). Each row against the serial answer.
// REQUIRES: libptxrt
// RUN: %ptxcc -fopenacc %s -o %t && %run %t | FileCheck %s
// CHECK: serial worker 0
// CHECK-NEXT: serial gang 0
// CHECK-NEXT: serial auto float 0
// CHECK-NEXT: parallel auto long 0
// CHECK-NEXT: kernels 0
// CHECK-NEXT: two-level 0
#include <stdio.h>
#define N 40
#define M 96
int a[N*M];
int main(void) {
  int bad = 0;
  for (int k = 0; k < N*M; k++) a[k] = k % 13 - 5;
  int want[N];
  for (int i = 0; i < N; i++) { want[i] = 0; for (int j = 0; j < M; j++) want[i] += a[i*M+j]; }
  int r[N], d; float fr[N], fd;
  // serial loop private(d) + loop worker reduction
#pragma acc serial loop private(d) copyin(a) copyout(r)
  for (int i = 0; i < N; i++) { d = 0;
#pragma acc loop worker reduction(+:d)
    for (int j = 0; j < M; j++) d += a[i*M+j];
    r[i] = d; }
  for (int i = 0; i < N; i++) bad += r[i] != want[i];
  printf("serial worker %d\n", bad);
  // serial { loop gang private(d) { loop vector reduction } }
#pragma acc serial copyin(a) copyout(r)
  {
#pragma acc loop gang private(d)
  for (int i = 0; i < N; i++) { d = 0;
#pragma acc loop vector reduction(+:d)
    for (int j = 0; j < M; j++) d += a[i*M+j];
    r[i] = d; }
  }
  for (int i = 0; i < N; i++) bad += r[i] != want[i];
  printf("serial gang %d\n", bad);
  // serial loop gang private + inner gang-less 'loop reduction' (auto)
#pragma acc serial loop private(fd) copyin(a) copyout(fr)
  for (int i = 0; i < N; i++) { fd = 0;
#pragma acc loop reduction(+:fd)
    for (int j = 0; j < M; j++) fd += a[i*M+j];
    fr[i] = fd; }
  for (int i = 0; i < N; i++) bad += fr[i] != want[i];
  printf("serial auto float %d\n", bad);
  // parallel loop gang private + loop seq inner + loop vector reduction
  long ld, lr[N];
#pragma acc parallel loop gang private(ld) copyin(a) copyout(lr)
  for (int i = 0; i < N; i++) { ld = 0;
#pragma acc loop reduction(+:ld)
    for (int j = 0; j < M; j++) ld += a[i*M+j];
    lr[i] = ld; }
  for (int i = 0; i < N; i++) bad += lr[i] != want[i];
  printf("parallel auto long %d\n", bad);
  // kernels loop gang private + inner vector reduction
#pragma acc kernels loop gang private(d) copyin(a) copyout(r)
  for (int i = 0; i < N; i++) { d = 0;
#pragma acc loop vector reduction(+:d)
    for (int j = 0; j < M; j++) d += a[i*M+j];
    r[i] = d; }
  for (int i = 0; i < N; i++) bad += r[i] != want[i];
  printf("kernels %d\n", bad);
  // two-level: gang private d, worker private e, vector reduction e, worker reduction d
  int e;
#pragma acc parallel loop gang private(d) num_workers(4) copyin(a) copyout(r)
  for (int i = 0; i < N; i++) { d = 0;
#pragma acc loop worker private(e) reduction(+:d)
    for (int w = 0; w < 4; w++) { e = 0;
#pragma acc loop vector reduction(+:e)
      for (int j = w*24; j < w*24+24; j++) e += a[i*M+j];
      d += e; }
    r[i] = d; }
  for (int i = 0; i < N; i++) bad += r[i] != want[i];
  printf("two-level %d\n", bad);
  return bad != 0;
}
