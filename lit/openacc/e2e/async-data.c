// async on data movement: enter data, exit data and update with async/wait, a kernels region
// whose kernels and data movements all go on its queue, a data region with async, the wait
// directive on queues the acc_*_async routines filled, and wait(q) async(r) / wait async(r).
// The kernels are slow enough on the emulator that a missing wait shows as stale host data.
// REQUIRES: libptxrt
// RUN: %ptxcc -fopenacc %s -o %t && %run %t | FileCheck %s
// CHECK: PASS
#include <stdio.h>
#include <openacc.h>
#define N (1 << 15)
#define REPS 300
static double a[N], b[N], c[N], d[N], e[N];

// A value that takes a while to compute.
#pragma acc routine seq
static double slow(double v) {
  double s = 0;
  for (int r = 0; r < REPS; r++) s += 1e-9 * r;
  return v + (s > 1e9);
}

static int check(const char *what, const double *x, double (*want)(int)) {
  for (int i = 0; i < N; i++)
    if (x[i] != want(i)) { printf("%s: [%d] = %g, want %g\n", what, i, x[i], want(i)); return 1; }
  return 0;
}
static double want_a(int i) { return 2.0 * i + 1; }
static double want_b(int i) { return i < 1 ? 3.0 * i : 3.0 * i + 1; }
static double want_c(int i) { return i + 5.0; }
static double want_d(int i) { return 10.0 * i; }
static double want_e(int i) { return -1.0 * i; }

int main(void) {
  int bad = 0;
  for (int i = 0; i < N; i++) { a[i] = i; b[i] = i; c[i] = i; d[i] = i; e[i] = 0; }

  // enter data / update / exit data on queue 1, in order, then wait.
  #pragma acc enter data copyin(a) async(1)
  #pragma acc parallel loop present(a) async(1)
  for (int i = 0; i < N; i++) a[i] = slow(2 * a[i]);
  #pragma acc parallel loop present(a) async(1)
  for (int i = 0; i < N; i++) a[i] += 1;
  #pragma acc update self(a) async(1)
  #pragma acc exit data delete(a) async(1)
  #pragma acc wait(1)
  bad += check("enter/update/exit data async(1)", a, want_a);
  if (acc_is_present(a, sizeof a)) { printf("exit data async(1): a still present\n"); bad++; }

  // A kernels region on queue 2 (its copyin/copyout too), after queue 1; a sequential kernel
  // and a reduction in it.
  double sum = 0;
  #pragma acc kernels copy(b) async(2) wait(1)
  {
    for (int i = 0; i < N; i++) b[i] = slow(3 * b[i]);
    for (int i = 1; i < N; i++) b[i] = b[i] + (b[i - 1] >= 0);
    for (int i = 0; i < N; i++) sum += b[i];
  }
  #pragma acc wait(2)
  bad += check("kernels async(2)", b, want_b);
  double want_sum = 0;
  for (int i = 0; i < N; i++) want_sum += want_b(i);
  if (sum != want_sum) { printf("kernels async(2): sum %g, want %g\n", sum, want_sum); bad++; }
  if (acc_is_present(b, sizeof b)) { printf("kernels async(2): b still present\n"); bad++; }

  // A data region with async(3): its exit comes after the region's work on queue 3, so c is
  // back on the host when the region ends.
  #pragma acc data copy(c) async(3)
  {
    #pragma acc parallel loop async(3)
    for (int i = 0; i < N; i++) c[i] = slow(c[i] + 5);
  }
  bad += check("data async(3)", c, want_c);

  // The runtime routines on queue 4 and the constructs on it run in order; wait(4) waits for both.
  acc_copyin_async(d, sizeof d, 4);
  #pragma acc parallel loop present(d) async(4)
  for (int i = 0; i < N; i++) d[i] = slow(10 * d[i]);
  acc_update_self_async(d, sizeof d, 4);
  #pragma acc wait(4)
  bad += check("acc_*_async and wait(4)", d, want_d);
  acc_delete(d, sizeof d);

  // wait(5) async(6): queue 6 goes on after queue 5.
  #pragma acc enter data create(e)
  #pragma acc parallel loop present(e) async(5)
  for (int i = 0; i < N; i++) e[i] = slow(-1.0 * i);
  #pragma acc wait(5) async(6)
  #pragma acc update self(e) async(6)
  #pragma acc wait(6)
  bad += check("wait(5) async(6)", e, want_e);
  // wait async(7): queue 7 goes on after every queue.
  #pragma acc parallel loop present(e) async(8)
  for (int i = 0; i < N; i++) e[i] = slow(-2.0 * i);
  #pragma acc parallel loop present(e) async(9)
  for (int i = 0; i < N; i++) e[i] = slow(0.0);
  #pragma acc wait(9)
  #pragma acc parallel loop present(e) async(8)
  for (int i = 0; i < N; i++) e[i] = slow(-1.0 * i);
  #pragma acc wait async(7)
  #pragma acc update self(e) async(7)
  #pragma acc wait(7)
  bad += check("wait async(7)", e, want_e);
  #pragma acc exit data delete(e)

  printf("%s %d\n", bad ? "FAIL" : "PASS", bad);
  return bad != 0;
}
