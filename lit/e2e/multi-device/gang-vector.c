// A gang loop with an inner vector loop (OpenACC), and the same as `distribute` with an inner
// `parallel for` (OpenMP): the inner region gets the arrays, the row length and the gang's row
// by reference, and runs part of the inner iterations per thread. The access ranges follow
// the captured variables to what the gang loop stored (the pointers once, the row at every
// iteration) and range the inner index over all of its iterations, so a Jacobi split over
// devices in a data region moves halo rows, not the arrays (before: every access was "an
// access through a pointer the analysis cannot trace", the whole section).
// RUN: %ptxcc -fopenacc -fptxcc-multi-device -fptxcc-info -O2 %s -o %t 2>&1 | FileCheck %s --check-prefix=INFO --implicit-check-not="whole section"
// RUN: env PTXRT_EMU_DEVICES=1 PTXSIM_DEVICES=1 %run %t | FileCheck %s
// RUN: env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 PTXRT_DEBUG=1 %run %t 2>&1 | FileCheck %s
// RUN: env PTXRT_EMU_DEVICES=3 PTXSIM_DEVICES=3 %run %t | FileCheck %s
// RUN: rm -f %t.json
// RUN: env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 PTXRT_PROFILE=json:%t.json %run %t | FileCheck %s
// RUN: FileCheck %s --check-prefix=BYTES < %t.json
// RUN: %ptxcc -fopenacc -fptxcc-hybrid -O2 %s -o %t.hybrid
// RUN: env PTXRT_CPU_WEIGHT=0.3 PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 %run %t.hybrid | FileCheck %s
// RUN: env PTXRT_CPU_WEIGHT=0.5 PTXRT_EMU_DEVICES=1 PTXSIM_DEVICES=1 %run %t.hybrid | FileCheck %s
// INFO: access ranges of kernel '{{.*}}sweep_acc{{.*}}': {{.*}}(v1 = 0 .. arg{{[0-9]}} - 3)
// INFO: access ranges of kernel '{{.*}}sweep_omp{{.*}}': {{.*}}(v1 = 0 .. arg{{[0-9]}} - 3)
// CHECK: 0 mismatches
// 2 devices, 40 x 24 doubles, rows 1..38 split in halves, a sweep = 2 launches of each
// version: the first sweep moves 16064 bytes to device 1 (its rows of the four arrays and their
// halos); every later sweep 704 bytes each way, one halo row (22 doubles, 176 bytes) per
// launch. The ends of the regions copy device 1's rows (14176 bytes) from device 1 straight to
// the host, not through device 0. Whole sections would copy 15360 bytes to device 1 at every
// launch.
// BYTES: "devices": [
// BYTES-NEXT: {"id": 0, {{.*}} "peer_bytes": 6688,
// BYTES-NEXT: {"id": 1, {{.*}} "d2h_bytes": 14176, "peer_bytes": 22400,
#include <stdio.h>
#define N 40
#define M 24
#ifndef SWEEPS
#define SWEEPS 10
#endif

static void sweep_acc(int n, int m, const double *restrict a, double *restrict b) {
#pragma acc parallel loop gang present(a[0:n*m], b[0:n*m])
  for (int i = 1; i < n - 1; i++) {
#pragma acc loop vector
    for (int j = 1; j < m - 1; j++)
      b[i * m + j] = 0.25 * (a[(i - 1) * m + j] + a[(i + 1) * m + j] + a[i * m + j - 1] + a[i * m + j + 1]);
  }
}

static void sweep_omp(int n, int m, const double *restrict a, double *restrict b) {
#pragma omp target teams distribute map(present, to : a[0:n*m]) map(present, tofrom : b[0:n*m])
  for (int i = 1; i < n - 1; i++) {
#pragma omp parallel for
    for (int j = 1; j < m - 1; j++)
      b[i * m + j] = 0.25 * (a[(i - 1) * m + j] + a[(i + 1) * m + j] + a[i * m + j - 1] + a[i * m + j + 1]);
  }
}

static void sweep_host(int n, int m, const double *a, double *b) {
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < m - 1; j++)
      b[i * m + j] = 0.25 * (a[(i - 1) * m + j] + a[(i + 1) * m + j] + a[i * m + j - 1] + a[i * m + j + 1]);
}

int main(void) {
  static double a[N * M], b[N * M], c[N * M], d[N * M], ra[N * M], rb[N * M];
  for (int x = 0; x < N * M; x++)
    a[x] = b[x] = c[x] = d[x] = ra[x] = rb[x] = (double)((x * 7) % 19);
#pragma acc data copy(a, b)
  for (int s = 0; s < SWEEPS; s++) {
    sweep_acc(N, M, a, b);
    sweep_acc(N, M, b, a);
  }
#pragma omp target data map(tofrom : c, d)
  for (int s = 0; s < SWEEPS; s++) {
    sweep_omp(N, M, c, d);
    sweep_omp(N, M, d, c);
  }
  for (int s = 0; s < SWEEPS; s++) {
    sweep_host(N, M, ra, rb);
    sweep_host(N, M, rb, ra);
  }
  int bad = 0;
  for (int x = 0; x < N * M; x++)
    bad += a[x] != ra[x] || b[x] != rb[x] || c[x] != ra[x] || d[x] != rb[x];
  printf("%d mismatches\n", bad);
  return bad != 0;
}
