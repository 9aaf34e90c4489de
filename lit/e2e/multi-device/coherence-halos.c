// The bytes a Jacobi iterated in a data region moves between two devices (PTXRT_PROFILE=json):
// 64 x 64 doubles, rows 1..62 split [1, 32) on device 0 (the data region's device: its part
// runs on the present copies) and [32, 63) on device 1 (its windows of A and B, kept across
// launches). The first sweep gives device 1 what it reads and writes: A's rows 31..63 from
// column 1 of row 31 to column 62 of row 63 (16880 bytes) and B's rows 32..62, columns 1..62
// (15856); the copy-back kernel then needs nothing. Every later sweep moves one halo row each
// way, columns 1..62 (496 bytes): row 32 of A to device 0, row 31 to device 1. The end of the
// region copies A out from its owners: device 1's rows (15856) from device 1, the rest from
// device 0, each straight to the host (gathered home first, they were 15856 peer bytes more
// to device 0); B is map(to), never copied out, so its rows on device 1 stay there.
// Before the coherence directory each split launch read both arrays whole from device 0 and
// wrote the changed bytes back through the host.
// RUN: %ptxcc -fopenmp -fptxcc-multi-device -O2 -DSWEEPS=1 %s -o %t.1
// RUN: %ptxcc -fopenmp -fptxcc-multi-device -O2 -DSWEEPS=5 %s -o %t.5
// RUN: rm -f %t.1.json %t.5.json
// RUN: env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 PTXRT_PROFILE=json:%t.1.json %run %t.1 | FileCheck %s --check-prefix=OUT
// RUN: env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 PTXRT_PROFILE=json:%t.5.json %run %t.5 | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=ONE < %t.1.json
// RUN: FileCheck %s --check-prefix=FIVE < %t.5.json
// OUT: 0 mismatches
// ONE: "devices": [
// ONE-NEXT: {"id": 0, {{.*}} "h2d_bytes": 65536, "d2h_bytes": 16912, "peer_bytes": 0, "kernels": 2,
// ONE-NEXT: {"id": 1, {{.*}} "h2d_bytes": 0, "d2h_bytes": 15856, "peer_bytes": 32736, "kernels": 2,
// Four more sweeps: 4 x 496 bytes more each way.
// FIVE: "devices": [
// FIVE-NEXT: {"id": 0, {{.*}} "h2d_bytes": 65536, "d2h_bytes": 16912, "peer_bytes": 1984, "kernels": 10,
// FIVE-NEXT: {"id": 1, {{.*}} "h2d_bytes": 0, "d2h_bytes": 15856, "peer_bytes": 34720, "kernels": 10,
// -fptxcc-hybrid, one device and the host half the rows each (PTXRT_CPU_WEIGHT=0.5): the host
// part is one more holder, its windows in host memory. Its first sweep brings in the same
// 32736 bytes as device 1 above (device to host); every later sweep one halo row each way
// (496 bytes); at the end of the region the copy out takes its rows of A from its windows
// (host memory to host memory: no transfer) and the rest from device 0 (16912).
// RUN: %ptxcc -fopenmp -fptxcc-hybrid -O2 -DSWEEPS=1 %s -o %t.h1
// RUN: %ptxcc -fopenmp -fptxcc-hybrid -O2 -DSWEEPS=5 %s -o %t.h5
// RUN: rm -f %t.h1.json %t.h5.json
// RUN: env PTXRT_CPU_WEIGHT=0.5 PTXRT_PROFILE=json:%t.h1.json %run %t.h1 | FileCheck %s --check-prefix=OUT
// RUN: env PTXRT_CPU_WEIGHT=0.5 PTXRT_PROFILE=json:%t.h5.json %run %t.h5 | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=HONE < %t.h1.json
// RUN: FileCheck %s --check-prefix=HFIVE < %t.h5.json
// HONE: "devices": [
// HONE-NEXT: {"id": 0, {{.*}} "h2d_bytes": 65536, "d2h_bytes": 49648, "peer_bytes": 0, "kernels": 2,
// HFIVE: "devices": [
// HFIVE-NEXT: {"id": 0, {{.*}} "h2d_bytes": 67520, "d2h_bytes": 51632, "peer_bytes": 0, "kernels": 10,
#include <stdio.h>
#include <string.h>
#define N 64
#ifndef SWEEPS
#define SWEEPS 5
#endif
static double A[N * N], B[N * N], RA[N * N], RB[N * N];
int main(void) {
  for (int k = 0; k < N * N; k++)
    A[k] = B[k] = RA[k] = RB[k] = (k % 11) * 0.25 + (k < N ? 8 : 0);
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
  }
  for (int s = 0; s < SWEEPS; s++) {
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < N - 1; j++)
        RB[i * N + j] = 0.25 * (RA[(i - 1) * N + j] + RA[(i + 1) * N + j] + RA[i * N + j - 1] + RA[i * N + j + 1]);
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < N - 1; j++)
        RA[i * N + j] = RB[i * N + j];
  }
  int bad = 0;
  for (int k = 0; k < N * N; k++)
    bad += A[k] != RA[k];
  printf("%d mismatches\n", bad);
  return bad != 0;
}
