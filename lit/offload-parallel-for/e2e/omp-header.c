// Plain OpenMP programs include <omp.h>, whose clang 19 copy defines device variants of
// omp_is_initial_device & co. inside 'begin declare variant'. With the pragmas blanked for
// libclang those were second definitions and every such file failed ("static declaration of
// 'omp_is_initial_device' follows non-static declaration"); the variant bodies are now blanked
// with their pragmas. Loops calling OpenMP routines stay on the host, as before.
// RUN: %ptxcc -fopenmp -fopenmp-offload-parallel-for=report -O2 %s -o %t 2>&1 | FileCheck %s --check-prefix=REPORT
// REPORT: omp-header.c:[[@LINE+12]]: parallel for offloaded: target teams distribute parallel for
// REPORT: omp-header.c:[[@LINE+17]]: parallel for stays on the host: {{.*}}omp_get_thread_num
// RUN: %run %t | FileCheck %s
// CHECK: a[999] = 1998, threads ok, PASS
#include <omp.h>
#include <stdio.h>

#define N 1000

int main(void) {
  static double a[N];
  static int tid[N];
#pragma omp parallel for
  for (int i = 0; i < N; i++)
    a[i] = 2 * i;
  int ok = 1;
  for (int i = 0; i < N; i++)
    ok &= a[i] == 2 * i;
#pragma omp parallel for
  for (int i = 0; i < N; i++)
    tid[i] = omp_get_thread_num();
  int threads_ok = 1;
  for (int i = 0; i < N; i++)
    threads_ok &= tid[i] >= 0 && tid[i] < omp_get_max_threads();
  printf("a[999] = %g, threads %s, %s\n", a[N - 1], threads_ok ? "ok" : "WRONG", ok && threads_ok ? "PASS" : "FAIL");
  return !(ok && threads_ok);
}
