// async queues: work on one queue runs in order, wait(q) and wait make the results visible,
// and the runtime routines acc_async_test / acc_wait agree.
// REQUIRES: libptxrt
// RUN: %ptxcc -fopenacc %s -o %t && %run %t | FileCheck %s
// CHECK: PASS
#include <stdio.h>
#include <openacc.h>
#define N 4096
int main(void) {
  static float a[N], b[N];
  int bad = 0;
  for (int i = 0; i < N; i++) { a[i] = i; b[i] = 0; }
  #pragma acc data copy(a, b)
  {
    #pragma acc parallel loop async(1)
    for (int i = 0; i < N; i++) a[i] = a[i] * 2;
    #pragma acc parallel loop async(1)
    for (int i = 0; i < N; i++) a[i] = a[i] + 1;
    #pragma acc parallel loop async(2)
    for (int i = 0; i < N; i++) b[i] = 5;
    #pragma acc wait(2) async(1)
    #pragma acc parallel loop async(1)
    for (int i = 0; i < N; i++) a[i] = a[i] + b[i];
    #pragma acc update self(a) async(1)
    #pragma acc wait(1)
    for (int i = 0; i < N; i++) if (a[i] != 2.0f * i + 6) bad++;
    #pragma acc parallel loop async
    for (int i = 0; i < N; i++) b[i] = i;
    #pragma acc update self(b) async
    #pragma acc wait
    for (int i = 0; i < N; i++) if (b[i] != i) bad++;
  }
  // The runtime routines wait for the queues too.
  #pragma acc enter data copyin(a)
  for (int r = 0; r < 3; r++) {
    #pragma acc parallel loop present(a) async(1)
    for (int i = 0; i < N; i++) a[i] = r + i % 7;
    #pragma acc update self(a) async(1)
    acc_wait(1);
    for (int i = 0; i < N; i++) if (a[i] != r + i % 7) { bad++; break; }
    #pragma acc parallel loop present(a) async(r)
    for (int i = 0; i < N; i++) a[i] = -r;
    #pragma acc update self(a[0:N]) async(r)
    acc_wait_all();
    if (a[N - 1] != -r) bad++;
  }
  // acc_set_default_async and set default_async choose the queue of a bare async.
  acc_set_default_async(5);
  if (acc_get_default_async() != 5) bad++;
  #pragma acc parallel loop present(a) async
  for (int i = 0; i < N; i++) a[i] = 1;
  #pragma acc update self(a) async(5)
  #pragma acc wait(5)
  if (a[N - 1] != 1) bad++;
  #pragma acc set default_async(6)
  #pragma acc parallel loop present(a) async
  for (int i = 0; i < N; i++) a[i] = 2;
  #pragma acc update self(a) async(6)
  #pragma acc wait(6)
  if (a[N - 1] != 2) bad++;
  #pragma acc exit data delete(a)
  if (!acc_async_test(1)) bad++;
  printf("%s %d\n", bad ? "FAIL" : "PASS", bad);
  return bad != 0;
}
