// omp_target_memcpy_async and omp_target_memcpy_rect_async (OpenMP 5.2 §18.8.7-8): host to
// device, device to host, a depobj that orders the copy after a task writing its source, and
// the rect form on a 2-D block; results checked against the host's arrays.
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: %run %t | FileCheck %s
// CHECK: async: ok
// CHECK-NEXT: depobj: ok
// CHECK-NEXT: rect async: ok
// CHECK-NEXT: PASS
#include <omp.h>
#include <stdio.h>

#define N 256

int main(void) {
  int dev = omp_get_default_device(), host = omp_get_initial_device(), bad = 0, b1 = 0;
  int a[N], r[N];
  for (int i = 0; i < N; i++)
    a[i] = i, r[i] = -1;
  int *d = omp_target_alloc(N * sizeof(int), dev);
  if (omp_target_memcpy_async(d, a, N * sizeof(int), 0, 0, dev, host, 0, NULL))
    bad++;
#pragma omp taskwait
#pragma omp target is_device_ptr(d)
  for (int i = 0; i < N; i++)
    d[i] *= 2;
  if (omp_target_memcpy_async(r, d, N * sizeof(int), 0, 0, host, dev, 0, NULL))
    bad++;
#pragma omp taskwait
  for (int i = 0; i < N; i++)
    b1 += r[i] != 2 * i;
  printf("async: %s\n", b1 ? "FAIL" : "ok"), bad += b1;

  // A task writes a[] and a depobj orders the copy after it.
  b1 = 0;
  omp_depend_t obj;
#pragma omp parallel num_threads(2)
#pragma omp single
  {
#pragma omp depobj(obj) depend(inout : a)
#pragma omp task depend(out : a)
    for (int i = 0; i < N; i++)
      a[i] = 3 * i;
    omp_target_memcpy_async(d, a, N * sizeof(int), 0, 0, dev, host, 1, &obj);
#pragma omp taskwait
#pragma omp depobj(obj) destroy
  }
  omp_target_memcpy(r, d, N * sizeof(int), 0, 0, host, dev);
  for (int i = 0; i < N; i++)
    b1 += r[i] != 3 * i;
  printf("depobj: %s\n", b1 ? "FAIL" : "ok"), bad += b1;

  // rect: the 4x8 block at (2, 4) of a 16x16 host matrix into a 4x8 device array and back.
  b1 = 0;
  static int m[16][16], back[4][8];
  for (int i = 0; i < 16; i++)
    for (int j = 0; j < 16; j++)
      m[i][j] = 100 * i + j;
  size_t vol[2] = {4, 8}, zero[2] = {0, 0}, at[2] = {2, 4}, big[2] = {16, 16}, small[2] = {4, 8};
  if (omp_target_memcpy_rect_async(d, m, sizeof(int), 2, vol, zero, at, small, big, dev, host, 0,
                                   NULL))
    bad++;
#pragma omp taskwait
  if (omp_target_memcpy_rect_async(back, d, sizeof(int), 2, vol, zero, zero, small, small, host,
                                   dev, 0, NULL))
    bad++;
#pragma omp taskwait
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 8; j++)
      b1 += back[i][j] != 100 * (i + 2) + j + 4;
  printf("rect async: %s\n", b1 ? "FAIL" : "ok"), bad += b1;
  omp_target_free(d, dev);
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
