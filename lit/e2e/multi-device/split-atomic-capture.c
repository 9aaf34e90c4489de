// A loop whose atomic update's value is used (`atomic capture`) is not split over devices:
// each device's part starts its copy of the variable at the identity, so the value a capture
// reads would be that part's running value, not the variable's. Tickets drawn with
// `t = count++` must be 0..N-1, each once; captured running sums must be ones the serial
// order can produce (each one more than an earlier one). Split, half the tickets repeated.
// RUN: %ptxcc -fopenmp -fptxcc-multi-device -fptxcc-info -O2 %s -o %t 2> %t.info
// RUN: FileCheck %s --check-prefix=INFO < %t.info
// RUN: env PTXRT_EMU_DEVICES=1 PTXSIM_DEVICES=1 %run %t | FileCheck %s
// RUN: env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 %run %t | FileCheck %s
// RUN: env PTXRT_EMU_DEVICES=3 PTXSIM_DEVICES=3 %run %t | FileCheck %s
// CHECK: 0 errors, count 1000, total 1000
// INFO: split-atomic-capture.c:[[@LINE+12]]:1: not split over devices: it uses the value of an atomic update (an atomic capture)
// INFO: split-atomic-capture.c:[[@LINE+18]]:1: not split over devices: it uses the value of an atomic update (an atomic capture)
#include <stdio.h>
#define N 1000

int main(void) {
  int count = 0, slot[N], seen[N];
  double total = 0, run[N];
  int seen_run[N + 1];
  for (int i = 0; i < N; i++)
    seen[i] = seen_run[i] = 0;
  seen_run[N] = 0;
#pragma omp target teams distribute parallel for map(tofrom : count) map(from : slot)
  for (int i = 0; i < N; i++) {
    int t;
#pragma omp atomic capture
    t = count++;
    slot[i] = t;
  }
#pragma omp target teams distribute parallel for map(tofrom : total) map(from : run)
  for (int i = 0; i < N; i++) {
    double v;
#pragma omp atomic capture
    v = total += 1.0;
    run[i] = v;
  }
  int bad = count != N || total != N;
  for (int i = 0; i < N; i++) {
    if (slot[i] < 0 || slot[i] >= N || seen[slot[i]]++)
      bad++;
    int r = (int)run[i];
    if (run[i] != r || r < 1 || r > N || seen_run[r]++)
      bad++;
  }
  printf("%d errors, count %d, total %g\n", bad, count, total);
  return bad != 0;
}
