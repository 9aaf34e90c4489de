// acc_wait, acc_wait_all, acc_async_test and acc_wait_async called from code that ptxcc did not
// compile (a library built by plain clang, without -fopenacc) still wait for the async
// constructs: the runtime routines first wait for the OpenMP tasks that `async(q)` became.
// The kernels are long enough that a missing wait shows as stale host data.
// REQUIRES: libptxrt
// RUN: %clang -O2 -DFOREIGN -c %s -o %t.foreign.o
// RUN: %ptxcc -fopenacc %s %t.foreign.o -o %t && %run %t | FileCheck %s
// CHECK: PASS
#include <stdio.h>

#ifdef FOREIGN
// The "library": no openacc.h, no ptxcc, only the runtime's C ABI.
void acc_wait(int);
void acc_wait_all(void);
int acc_async_test(int);
int acc_async_test_all(void);
void acc_wait_async(int, int);
void lib_wait(int q) { acc_wait(q); }
void lib_wait_all(void) { acc_wait_all(); }
int lib_test(int q) { return acc_async_test(q); }
int lib_test_all(void) { return acc_async_test_all(); }
void lib_wait_async(int q, int on) { acc_wait_async(q, on); }
#else
#include <openacc.h>
void lib_wait(int q);
void lib_wait_all(void);
int lib_test(int q);
int lib_test_all(void);
void lib_wait_async(int q, int on);

#define N (1 << 16)
#define REPS 200
static double a[N], b[N];

// Slow enough on the emulator that the host gets ahead of an unwaited task.
static void slow(double *x, double v, int q) {
  #pragma acc parallel loop present(x[0:N]) async(q)
  for (int i = 0; i < N; i++) {
    double s = 0;
    for (int r = 0; r < REPS; r++) s += 1e-9 * r;
    x[i] = v + (s > 1e9);
  }
  #pragma acc update self(x[0:N]) async(q)
}

static int all(const double *x, double v) {
  for (int i = 0; i < N; i++) if (x[i] != v) return 0;
  return 1;
}

int main(void) {
  int bad = 0;
  #pragma acc enter data create(a, b)
  for (int r = 1; r <= 3; r++) {
    slow(a, r, 1);
    lib_wait(1);
    if (!all(a, r)) { printf("acc_wait(1) from a library: round %d a[0]=%g\n", r, a[0]); bad++; }
    slow(a, 10 * r, 1);
    slow(b, 20 * r, 2);
    lib_wait_all();
    if (!all(a, 10 * r) || !all(b, 20 * r)) { printf("acc_wait_all from a library: round %d\n", r); bad++; }
    slow(b, 30 * r, 3);
    if (!lib_test(3)) { printf("acc_async_test(3) from a library: not done after waiting\n"); bad++; }
    if (!all(b, 30 * r)) { printf("acc_async_test from a library: round %d b[0]=%g\n", r, b[0]); bad++; }
    slow(a, 40 * r, 4);
    if (!lib_test_all() || !all(a, 40 * r)) { printf("acc_async_test_all from a library: round %d\n", r); bad++; }
    slow(b, 50 * r, 5);
    lib_wait_async(5, acc_async_sync);
    if (!all(b, 50 * r)) { printf("acc_wait_async from a library: round %d\n", r); bad++; }
  }
  #pragma acc exit data delete(a, b)
  printf("%s %d\n", bad ? "FAIL" : "PASS", bad);
  return bad != 0;
}
#endif
