// A parallel region nested in the parallel region of a target region runs on the lanes of the
// forking thread's warp: omp_get_thread_num / omp_get_num_threads count lanes there and warps
// in the outer region; `omp for` inside it with its implicit barrier (a warp barrier) shares a
// worker array between lanes; a block of 100 threads leaves its last warp 4 lanes, which still
// cover all 16 iterations of a num_threads(16) region; num_threads(64) is capped at 32 lanes.
// Results are compared with the serial loops.
// REQUIRES: libptxrt
// RUN: %ptxcc -fopenmp -O2 %s -o %t -fptxcc-info 2>&1 | FileCheck %s --check-prefix=INFO
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %run %t | FileCheck %s
// INFO: nested parallel region: its 16 threads are lanes of the warp
// INFO: nested parallel region: its 32 threads are lanes of the warp of the thread that forks it (a worker) (num_threads(64) capped at the warp's 32 lanes)
// CHECK: ids: ok
// CHECK: shared: ok
// CHECK: sums: ok
#include <omp.h>
#include <stdio.h>
#define N 24
#define M 16

int main(void) {
  int failed = 0, bad = 0;
  // Each (i, j, k) records the lane and lane count that ran it, and the worker count.
  static int lane[N][M][M], lanes[N][M][M], workers[N][M];
#pragma omp target teams distribute thread_limit(100) map(from: lane, lanes, workers)
  for (int i = 0; i < N; i++) {
#pragma omp parallel for
    for (int j = 0; j < M; j++) {
      workers[i][j] = omp_get_num_threads();
#pragma omp parallel for num_threads(16)
      for (int k = 0; k < M; k++) {
        lane[i][j][k] = omp_get_thread_num();
        lanes[i][j][k] = omp_get_num_threads();
      }
    }
  }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++) {
      bad += workers[i][j] != 4;
      for (int k = 0; k < M; k++) {
        int n = lanes[i][j][k];
        // 16 lanes in a whole warp, 4 in the block's last warp; iterations dealt cyclically.
        bad += (n != 16 && n != 4) || lane[i][j][k] != k % n;
      }
    }
  printf("ids: %s\n", bad ? "WRONG" : "ok");
  failed |= bad;

  // An array of the worker that one `omp for` of the nested region fills and the next reads.
  static int out[N][M][8];
  bad = 0;
#pragma omp target teams distribute map(from: out)
  for (int i = 0; i < N; i++) {
#pragma omp parallel for
    for (int j = 0; j < M; j++) {
      int t[8];
#pragma omp parallel num_threads(8)
      {
#pragma omp for
        for (int k = 0; k < 8; k++) t[k] = i * 100 + j * 10 + k;
#pragma omp for
        for (int k = 0; k < 8; k++) out[i][j][k] = t[(k + 1) % 8];
      }
    }
  }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      for (int k = 0; k < 8; k++) bad += out[i][j][k] != i * 100 + j * 10 + (k + 1) % 8;
  printf("shared: %s\n", bad ? "WRONG" : "ok");
  failed |= bad;

  // Sums at both nested levels, and num_threads above the warp.
  static double w[N][M][100], sums[N];
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      for (int k = 0; k < 100; k++) w[i][j][k] = (i + j * k) % 13 - 6;
  bad = 0;
#pragma omp target teams distribute map(to: w) map(from: sums)
  for (int i = 0; i < N; i++) {
    double s = 0;
#pragma omp parallel for reduction(+: s)
    for (int j = 0; j < M; j++) {
      double r = 0;
#pragma omp parallel for num_threads(64) reduction(+: r)
      for (int k = 0; k < 100; k++) r += w[i][j][k];
      s += r;
    }
    sums[i] = s;
  }
  for (int i = 0; i < N; i++) {
    double s = 0;
    for (int j = 0; j < M; j++)
      for (int k = 0; k < 100; k++) s += w[i][j][k];
    bad += sums[i] != s;
  }
  printf("sums: %s\n", bad ? "WRONG" : "ok");
  failed |= bad;
  return failed;
}
