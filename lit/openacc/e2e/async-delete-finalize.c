// acc_delete_async, acc_delete_finalize_async and acc_copyout_finalize_async (OpenACC 3.3,
// 3.2.22-3.2.23): each goes on its queue after the work already there (a slow kernel: the
// copy-out must see its result), lowers the dynamic reference count by one or, finalized, to
// zero; data a structured region holds stays until the region ends. acc_async_sync runs the
// routine synchronously; acc_async_noval and a bare async use the default queue
// (acc_set_default_async).
// REQUIRES: libptxrt
// RUN: %ptxcc -fopenacc %s -o %t && %run %t | FileCheck %s
// CHECK: PASS
#include <openacc.h>
#include <stdio.h>
#define N 8192
#define REPS 200
static double a[N], b[N], c[N];
static int bad;
static void expect(const char *what, int ok) {
  if (!ok && bad++ < 10) printf("%s\n", what);
}
// b = a * k, slowly, on queue q.
static void slow_scale(int q, double k) {
  #pragma acc parallel loop present(a[0:N], b[0:N]) async(q)
  for (int i = 0; i < N; i++) {
    double s = 0;
    for (int r = 0; r < REPS; r++) s += a[i] * k; // exact: multiples of 0.5
    b[i] = s / REPS;
  }
}
static int all(const double *x, double k) {
  for (int i = 0; i < N; i++)
    if (x[i] != a[i] * k) return 0;
  return 1;
}
int main(void) {
  const size_t B = sizeof a;
  for (int i = 0; i < N; i++) a[i] = (i % 64) * 0.5;

  // copyout_finalize_async: two dynamic references, one routine ends both, after the kernel.
  acc_copyin(a, B);
  acc_create(b, B);
  acc_create(b, B);
  slow_scale(1, 2);
  acc_copyout_finalize_async(b, B, 1);
  acc_wait(1);
  expect("copyout_finalize_async: b copied after the kernel", all(b, 2));
  expect("copyout_finalize_async: b deleted", !acc_is_present(b, B));

  // delete_async: one reference less; the data is deleted only with the last one.
  acc_create(b, B);
  acc_create(b, B);
  slow_scale(2, 3);
  acc_delete_async(b, B, 2);
  acc_wait(2);
  expect("delete_async: one of two references left", acc_is_present(b, B));
  acc_copyout(b, B);
  expect("delete_async: the data survived", all(b, 3));
  expect("delete_async: gone after the last copyout", !acc_is_present(b, B));

  // delete_finalize_async: every dynamic reference at once, on the queue.
  acc_copyin(c, B);
  acc_copyin(c, B);
  acc_copyin(c, B);
  acc_delete_finalize_async(c, B, 3);
  acc_wait(3);
  expect("delete_finalize_async: deleted", !acc_is_present(c, B));

  // A structured reference keeps the data: the finalize ends the dynamic ones only.
  #pragma acc data create(b[0:N])
  {
    acc_create(b, B);
    slow_scale(4, 4);
    acc_copyout_finalize_async(b, B, 4);
    acc_delete_finalize_async(b, B, 4);
    acc_wait(4);
    expect("structured: still present in the region", acc_is_present(b, B));
    #pragma acc update self(b[0:N])
    expect("structured: device data intact", all(b, 4));
  }
  expect("structured: gone after the region", !acc_is_present(b, B));

  // acc_async_sync: done when the routine returns. acc_async_noval: the default queue.
  acc_create(b, B);
  slow_scale(5, 5);
  acc_wait(5);
  acc_copyout_finalize_async(b, B, acc_async_sync);
  expect("async_sync: copied and deleted on return", all(b, 5) && !acc_is_present(b, B));
  acc_set_default_async(6);
  acc_create(b, B);
  slow_scale(6, 6);
  acc_copyout_finalize_async(b, B, acc_async_noval);
  acc_delete_async(a, B, acc_async_noval);
  acc_wait(6);
  expect("async_noval: on the default queue, after its kernel", all(b, 6));
  expect("async_noval: a and b deleted", !acc_is_present(a, B) && !acc_is_present(b, B));
  printf(bad ? "FAIL\n" : "PASS\n");
  return bad != 0;
}
