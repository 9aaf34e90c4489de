// ptxsim's counters and time model (PTXSIM_STATS, PTXSIM_MODEL; ptx-sim/README.md) on a program
// ptxcc built: a unit-stride copy of doubles and a copy that reads with a stride of 16 doubles
// (a sector per lane, where the unit-stride reads take 8 or 9 for 32 lanes), each launched twice.
// REQUIRES: ptxsim
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: rm -f %t.json && env PTXSIM_STATS=json:%t.json %run %t | FileCheck %s --check-prefix=OUT
// OUT: copies 2 2: ok
// RUN: %python %S/Inputs/ptxsim_stats_check.py %t.json 65536 | FileCheck %s --check-prefix=JSON
// JSON: model h100-sxm
// JSON-DAG: unit: launches 2, lanes 32, load sectors per request 8 or 9: True, dram >= 2 arrays: True, est > dram / bw: True
// JSON-DAG: strided: launches 2, lanes 32, load sectors per request 32
// The table, for another GPU.
// RUN: env PTXSIM_STATS=1 PTXSIM_MODEL=a100 %run %t 2>&1 | FileCheck %s --check-prefix=TABLE
// TABLE: ptxsim: kernel{{.*}}launches{{.*}}warp_insts{{.*}}ld_sectors{{.*}}dram_bytes{{.*}}est_seconds
// TABLE: ptxsim: estimates for a100
// Settings ptxsim cannot honour are errors, not silently ignored.
// RUN: env PTXSIM_STATS=yes not %run %t 2>&1 | FileCheck %s --check-prefix=BADSTATS
// BADSTATS: ptxsim: error: PTXSIM_STATS=yes is not understood: use 1 {{.*}} or json:PATH
// RUN: env PTXSIM_STATS=1 PTXSIM_MODEL=h1000 not %run %t 2>&1 | FileCheck %s --check-prefix=BADMODEL
// BADMODEL: ptxsim: error: PTXSIM_MODEL=h1000 is not a device model ptxsim knows; use one of h100-sxm, h200, a100, v100
#include <stdio.h>
#include <stdlib.h>

#define N 65536

static void unit(double *restrict out, const double *restrict in, int n) {
#pragma omp target teams distribute parallel for map(to : in[0:n]) map(from : out[0:n])
  for (int i = 0; i < n; i++) out[i] = in[i];
}

static void strided(double *restrict out, const double *restrict in, int n) {
#pragma omp target teams distribute parallel for map(to : in[0:16 * n]) map(from : out[0:n])
  for (int i = 0; i < n; i++) out[i] = in[16 * (long)i];
}

int main(void) {
  double *in = malloc(16 * sizeof(double) * N), *out = malloc(sizeof(double) * N);
  for (long i = 0; i < 16L * N; i++) in[i] = (double)i;
  int ok = 1, runs = 0;
  for (int r = 0; r < 2; r++) {
    unit(out, in, N);
    for (int i = 0; i < N; i++) ok &= out[i] == (double)i;
    strided(out, in, N);
    for (int i = 0; i < N; i++) ok &= out[i] == 16.0 * i;
    runs++;
  }
  printf("copies %d %d: %s\n", runs, runs, ok ? "ok" : "WRONG");
  return !ok;
}
