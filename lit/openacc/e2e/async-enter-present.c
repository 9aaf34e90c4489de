// An `enter data … async(q)` followed by a synchronous construct with a `present` clause: OpenACC
// 3.3 §2.7.2 makes the copyin/create action allocate the data and set its reference counter when
// the directive is met (only the copy may complete later), so the synchronous `present` check
// finds the data even though the queued enter has not run yet. Work queued on q after it uses
// the copied values. Data that no enter data names stays a located "not present" error.
// REQUIRES: libptxrt
// RUN: %ptxcc -fopenacc %s -o %t && %run %t | FileCheck %s
// RUN: %ptxcc -fopenacc -DMISSING %s -o %t.missing
// RUN: not %run %t.missing 2>&1 | FileCheck %s --check-prefix=MISSING
// CHECK: data present: PASS
// CHECK: parallel present: PASS
// CHECK: delete_async then enter async: PASS
// CHECK: create async: PASS
// MISSING: async-enter-present.c:[[@LINE+60]]:1: variable 'd[0:n]' {{.*}} is not present on device
#include <openacc.h>
#include <stdio.h>
#include <stdlib.h>
static void report(const char *what, const double *x, int n, double (*want)(int)) {
  int bad = 0;
  for (int i = 0; i < n; i++)
    if (x[i] != want(i)) bad++;
  printf("%s: %s\n", what, bad ? "FAIL" : "PASS");
}
static double plus_one(int i) { return i + 1.0; }
static double times_three(int i) { return 3.0 * i; }
static double twice_plus_one(int i) { return 2.0 * i + 1.0; }
static double five(int i) { (void)i; return 5.0; }
int main(void) {
  int n = 4096;
  double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c);
  for (int i = 0; i < n; i++) a[i] = b[i] = c[i] = i;

  // A data construct: its `present` check is synchronous, its kernel is queued after the copy.
  #pragma acc enter data copyin(a[0:n]) async(1)
  #pragma acc data present(a[0:n])
  {
    #pragma acc parallel loop async(1)
    for (int i = 0; i < n; i++) a[i] += 1;
  }
  #pragma acc exit data copyout(a[0:n]) async(1)
  #pragma acc wait(1)
  report("data present", a, n, plus_one);

  // A synchronous compute construct (no async): the enter on queue 2 must have copied b
  // before the kernel reads it, which the program asks for with wait(2).
  #pragma acc enter data copyin(b[0:n]) async(2)
  #pragma acc parallel loop present(b[0:n]) wait(2)
  for (int i = 0; i < n; i++) b[i] *= 3;
  #pragma acc exit data copyout(b[0:n])
  report("parallel present", b, n, times_three);

  // The halves of a delete and a new copyin, both on queue 3, around host work on c.
  #pragma acc enter data copyin(c[0:n])
  #pragma acc parallel loop present(c[0:n])
  for (int i = 0; i < n; i++) c[i] *= 2;
  acc_delete_async(c, n * sizeof *c, 3);
  #pragma acc wait(3)
  for (int i = 0; i < n; i++) c[i] = 2.0 * i; // the host's values: the device ones were deleted
  #pragma acc enter data copyin(c[0:n]) async(3)
  #pragma acc data present(c[0:n])
  {
    #pragma acc parallel loop async(3)
    for (int i = 0; i < n; i++) c[i] += 1;
  }
  #pragma acc exit data copyout(c[0:n]) async(3)
  #pragma acc wait
  report("delete_async then enter async", c, n, twice_plus_one);

  // create: allocated when the directive is met (a synchronous kernel writes it), copied out.
  double *d = malloc(n * sizeof *d);
#ifndef MISSING
  #pragma acc enter data create(d[0:n]) async(4)
#endif
  #pragma acc parallel loop present(d[0:n])
  for (int i = 0; i < n; i++) d[i] = 5;
  #pragma acc exit data copyout(d[0:n])
  report("create async", d, n, five);
  return 0;
}
