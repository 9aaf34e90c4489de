// Updates inside a data region whose arrays split launches spread over two devices
// (PTXRT_PROFILE=json): an `update from` of a row reads only that row (the bytes device 1
// holds go from device 1 to the host, its copy stays current and the home copy on device 0 is
// not touched), an `update to` of a row overwrites only that row (device 1's copy of it
// becomes stale); neither makes device 1 fetch its whole window again.
// 64 x 64 doubles, rows 1..62 split [1, 32) on device 0, [32, 63) on device 1. After every sweep
// the host reads row 32 (written by device 1) and rewrites boundary row 63 (read by device 1).
// Ranges are intervals: device 1's part writes A from row 32 column 1 to row 62 column 62 and
// reads it from row 31 column 1 to row 63 column 62. Every sweep after the first moves, besides
// the 496-byte halo row 31 to device 1:
//   - update from row 32: its columns 1..63 from device 1 to the host (504 d2h there), column 0
//     from device 0 (8 d2h); device 0's next sweep fetches the row's columns 1..62 from
//     device 1 (496 peer);
//   - update to row 63: 512 h2d; device 1's next sweep fetches its columns 0..62 again (504).
// Sweep 1 as in coherence-halos.c (16880 + 15856 bytes to device 1), then its two updates;
// the end of the region copies device 1's rows of A (15856 bytes, row 32 included) from
// device 1 to the host and the rest from device 0: no byte goes through device 0 on its way
// out (with the home copy gathered first, device 0 received 15856 peer bytes here).
// RUN: %ptxcc -fopenmp -fptxcc-multi-device -O2 -DSWEEPS=1 %s -o %t.1
// RUN: %ptxcc -fopenmp -fptxcc-multi-device -O2 -DSWEEPS=4 %s -o %t.4
// RUN: rm -f %t.1.json %t.4.json
// RUN: env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 PTXRT_PROFILE=json:%t.1.json %run %t.1 | FileCheck %s --check-prefix=OUT
// RUN: env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 PTXRT_PROFILE=json:%t.4.json %run %t.4 | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=ONE < %t.1.json
// RUN: FileCheck %s --check-prefix=FOUR < %t.4.json
// OUT: 0 mismatches
// ONE: "devices": [
// ONE-NEXT: {"id": 0, {{.*}} "h2d_bytes": 66048, "d2h_bytes": 16920, "peer_bytes": 0, "kernels": 2,
// ONE-NEXT: {"id": 1, {{.*}} "h2d_bytes": 0, "d2h_bytes": 16360, "peer_bytes": 32736, "kernels": 2,
// Three more sweeps: 3 x (512 h2d, 8 + 504 d2h, 496 peer to device 0, 1000 peer to device 1).
// Settling everything at each update instead, device 1 fetched its whole windows every sweep.
// FOUR: "devices": [
// FOUR-NEXT: {"id": 0, {{.*}} "h2d_bytes": 67584, "d2h_bytes": 16944, "peer_bytes": 1488, "kernels": 8,
// FOUR-NEXT: {"id": 1, {{.*}} "h2d_bytes": 0, "d2h_bytes": 17872, "peer_bytes": 35736, "kernels": 8,
#include <stdio.h>
#define N 64
#ifndef SWEEPS
#define SWEEPS 4
#endif
static double A[N * N], B[N * N], RA[N * N], RB[N * N];

static void boundary(double *a, int s, double *seen) {
  double sum = 0;
  for (int j = 0; j < N; j++)
    sum += a[32 * N + j];
  *seen += sum;
  for (int j = 0; j < N; j++)
    a[63 * N + j] = sum / N + s + j * 0.5;
}

int main(void) {
  for (int k = 0; k < N * N; k++)
    A[k] = B[k] = RA[k] = RB[k] = (k % 11) * 0.25 + (k < N ? 8 : 0);
  double seen = 0, rseen = 0;
#pragma omp target data map(tofrom : A) map(to : B)
  for (int s = 0; s < SWEEPS; s++) {
#pragma omp target teams distribute parallel for
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < N - 1; j++)
        B[i * N + j] = 0.25 * (A[(i - 1) * N + j] + A[(i + 1) * N + j] + A[i * N + j - 1] + A[i * N + j + 1]);
#pragma omp target teams distribute parallel for
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < N - 1; j++)
        A[i * N + j] = B[i * N + j];
#pragma omp target update from(A[32 * N : N])
    boundary(A, s, &seen);
#pragma omp target update to(A[63 * N : N])
  }
  for (int s = 0; s < SWEEPS; s++) {
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < N - 1; j++)
        RB[i * N + j] = 0.25 * (RA[(i - 1) * N + j] + RA[(i + 1) * N + j] + RA[i * N + j - 1] + RA[i * N + j + 1]);
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < N - 1; j++)
        RA[i * N + j] = RB[i * N + j];
    boundary(RA, s, &rseen);
  }
  int bad = seen != rseen;
  for (int k = 0; k < N * N; k++)
    bad += A[k] != RA[k];
  printf("%d mismatches\n", bad);
  return bad != 0;
}
