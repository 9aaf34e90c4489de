// -fptxcc-layout=auto with host threads (issue 18): the runtime's layouts are process-wide,
// and every thread of an `omp parallel` may be inside the same data region at once.
//  * own: each thread maps its own array of its own length through the same region. The
//    region's kernels read one set of run-time extents, so the first thread in converts and
//    every other thread's instance keeps the original layout (it ran into the extents error,
//    or, without the region's begin done under the lock, two threads converting with one
//    extents global: the kernels indexed past the copy).
//  * shared: each thread maps the same global (reference counted: one device copy) and
//    updates its own columns. The threads share the first one's layout; the last to leave
//    converts back. (Ends and switches taken while another thread's kernel ran on the copy
//    gave wrong columns.)
// A barrier inside the region keeps every thread in it at once. Each policy gives the serial
// answer.
// RUN: %ptxcc -fopenmp -O2 -fptxcc-layout=auto -fptxcc-info %s -o %t 2>&1 | FileCheck %s --check-prefix=INFO
// RUN: %run %t | FileCheck %s
// RUN: env PTXRT_LAYOUT_AUTO=always PTXRT_DEBUG=1 %run %t 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=KEPT < %t.err
// RUN: env PTXRT_LAYOUT_AUTO=never %run %t | FileCheck %s
// INFO-DAG: auto-host-threads.c:[[#]]:1: layout: a[?] -> [4][?] (seen as [?][4]: consecutive threads step 4 elements in 7 of 7 accesses)
// INFO-DAG: auto-host-threads.c:[[#]]:1: layout: v[256][32] -> [32][256] (coalesced on dimension 1: 2 of 2 accesses)
// KEPT: auto-host-threads.c:[[#]]:1: 'a' keeps its original layout here: the same region is active with extents
// CHECK: own: PASS
// CHECK: shared: PASS
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define T 4

static void own_step(double *restrict a, int n, int iters) {
#pragma omp target data map(tofrom : a[0:n*4])
  {
    for (int it = 0; it < iters; it++) {
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; i++) {
        double s = a[i*4+0] + 2*a[i*4+1] + 3*a[i*4+2];
        a[i*4+3] = s * 0.25 + a[i*4+3] * 0.5;
        a[i*4+0] += 1;
      }
    }
#pragma omp barrier
  }
}

static int own(void) {
  int bad = 0;
#pragma omp parallel num_threads(T) reduction(+ : bad)
  {
    int t = omp_get_thread_num(), n = 3000 + 517 * t, iters = 5 + t;
    double *a = malloc(sizeof(double) * 4 * n), *r = malloc(sizeof(double) * 4 * n);
    for (int k = 0; k < 4 * n; k++) a[k] = r[k] = k % 13;
    for (int rep = 0; rep < 2; rep++) {
      own_step(a, n, iters);
      for (int it = 0; it < iters; it++)
        for (int i = 0; i < n; i++) {
          double s = r[i*4+0] + 2*r[i*4+1] + 3*r[i*4+2];
          r[i*4+3] = s * 0.25 + r[i*4+3] * 0.5;
          r[i*4+0] += 1;
        }
    }
    for (int k = 0; k < 4 * n; k++) bad += a[k] != r[k];
    free(a);
    free(r);
  }
  return bad;
}

#define I 256
#define J 32
static double v[I][J], w[I][J];

static void shared_cols(int c0, int c1, int iters) {
#pragma omp target data map(tofrom : v)
  {
    for (int it = 0; it < iters; it++) {
#pragma omp target teams distribute parallel for
      for (int i = 0; i < I; i++)
        for (int c = c0; c < c1; c++) v[i][c] = v[i][c] * 0.5 + i;
    }
#pragma omp barrier
  }
}

static int shared(void) {
  for (int i = 0; i < I; i++)
    for (int j = 0; j < J; j++) v[i][j] = w[i][j] = i + j;
#pragma omp parallel num_threads(T)
  {
    int t = omp_get_thread_num();
    for (int rep = 0; rep < 2; rep++) shared_cols(t * J / T, (t + 1) * J / T, 3 + t);
  }
  for (int t = 0; t < T; t++)
    for (int rep = 0; rep < 2; rep++)
      for (int it = 0; it < 3 + t; it++)
        for (int i = 0; i < I; i++)
          for (int c = t * J / T; c < (t + 1) * J / T; c++) w[i][c] = w[i][c] * 0.5 + i;
  int bad = 0;
  for (int i = 0; i < I; i++)
    for (int j = 0; j < J; j++) bad += v[i][j] != w[i][j];
  return bad;
}

int main(void) {
  int b1 = own(), b2 = shared();
  printf("own: %s (%d wrong)\n", b1 ? "FAIL" : "PASS", b1);
  printf("shared: %s (%d wrong)\n", b2 ? "FAIL" : "PASS", b2);
  return b1 || b2;
}
