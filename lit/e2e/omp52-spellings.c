// OpenMP 5.1/5.2 spellings that clang 19 refuses under its default OpenMP 5.1, compiled with the
// same meaning: `declare target enter` (5.2's name for `to`), map clauses without a map type on
// `target enter data` (5.2: `to`) and `target exit data` (5.2: `from`), and `flush seq_cst`
// (5.1: a strong flush, as a flush without clauses), and defaultmap's `all` category (5.2: every
// category; clang 19 does not know it in any mode). With -fopenmp-version=52 clang reads the
// first two itself.
// RUN: %ptxcc -fopenmp -O1 %s -o %t
// RUN: %run %t | FileCheck %s
// RUN: %ptxcc -fopenmp -fopenmp-version=52 -O1 %s -o %t52
// RUN: %run %t52 | FileCheck %s
// CHECK: scale 3: 0 3 6 ... 189, copied back 64 of 64, flag 1
// CHECK-NEXT: defaultmap(to: all): host kept 5 and 1, device saw 5 and 1
#include <omp.h>
#include <stdio.h>
#define N 64

int scale = 3;
#pragma omp declare target enter(scale)
int times_scale(int x) { return x * scale; }
#pragma omp declare target enter(times_scale) device_type(any)

int main(void) {
  int a[N], b[N];
  for (int i = 0; i < N; i++) {
    a[i] = i;
    b[i] = -1;
  }
#pragma omp target enter data map(a[0:N], b[:N])
#pragma omp target teams distribute parallel for
  for (int i = 0; i < N; i++)
    b[i] = times_scale(a[i]);
#pragma omp target exit data map(b[0:N]) map(release : a)
  int good = 0;
  for (int i = 0; i < N; i++)
    good += b[i] == 3 * i;
  int flag = 0, data = 0;
#pragma omp parallel num_threads(2) shared(flag, data)
  {
    if (omp_get_thread_num() == 0) {
      data = 1;
#pragma omp flush seq_cst
#pragma omp atomic write
      flag = 1;
    } else {
      int f = 0;
      while (!f) {
#pragma omp atomic read
        f = flag;
      }
#pragma omp flush seq_cst
      if (data != 1)
        flag = 2;
    }
  }
  printf("scale %d: %d %d %d ... %d, copied back %d of %d, flag %d\n", scale, b[0], b[1],
         b[2], b[N - 1], good, N, flag);
  // `to` for scalars and aggregates alike: the device reads them, the host keeps its values.
  int k = 5, arr[2] = {1, 2}, seen_k = 0, seen_a = 0;
#pragma omp target defaultmap(to : all) map(from : seen_k, seen_a)
  {
    seen_k = k;
    seen_a = arr[0];
    k = 99;
    arr[0] = 99;
  }
  printf("defaultmap(to: all): host kept %d and %d, device saw %d and %d\n", k, arr[0], seen_k,
         seen_a);
  return 0;
}
