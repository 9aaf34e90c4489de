// Loops ptxcc cannot offload stay on the host as they are, with a remark saying why (a quick
// syntactic check of the loop, its clauses and the functions it calls), never an error.
// RUN: %ptxcc -fopenmp -fopenmp-offload-parallel-for -fptxcc-print-translated %s 2> %t.err | FileCheck %s --implicit-check-not="target teams"
// RUN: FileCheck %s --check-prefix=REMARK < %t.err
// The program still builds and runs: those loops run on the host, the others on the device.
// RUN: %ptxcc -fopenmp -O1 -fopenmp-offload-parallel-for %s %S/Inputs/log-step.c -o %t 2>/dev/null
// RUN: %run %t | FileCheck %s --check-prefix=OUT

#include <stdio.h>

void log_step(int i);            /* defined in Inputs/log-step.c */
double weights[64];
static double weight(int i) { return weights[i % 64]; } /* a global the loop does not name */
static double cube(double x) { return x * x * x; }     /* fine on the device */

int main(void) {
  double a[1000], last = 0, total = 0;
  int count = 0;
  for (int i = 0; i < 64; i++) weights[i] = 1;
  // REMARK: host-loops.c:[[@LINE+2]]:13: remark: parallel for stays on the host: schedule(dynamic) (ptxcc offloads static schedules only)
  // CHECK: #pragma omp parallel for schedule(dynamic)
#pragma omp parallel for schedule(dynamic)
  for (int i = 0; i < 1000; i++) a[i] = i;
  // REMARK: host-loops.c:[[@LINE+1]]:13: remark: parallel for stays on the host: schedule(guided)
#pragma omp parallel for schedule(guided, 8)
  for (int i = 0; i < 1000; i++) a[i] += 1;
  // REMARK: host-loops.c:[[@LINE+1]]:13: remark: parallel for stays on the host: it contains 'critical'
#pragma omp parallel for
  for (int i = 0; i < 1000; i++) {
#pragma omp critical
    total += a[i];
  }
  // REMARK: host-loops.c:[[@LINE+1]]:13: remark: parallel for stays on the host: it calls 'log_step', which is not defined in this translation unit
#pragma omp parallel for
  for (int i = 0; i < 1000; i += 100) log_step(i);
  // REMARK: host-loops.c:[[@LINE+1]]:13: remark: parallel for stays on the host: it calls 'printf', which is not defined in this translation unit
#pragma omp parallel for
  for (int i = 0; i < 2; i++) printf("");
  // REMARK: host-loops.c:[[@LINE+1]]:13: remark: parallel for stays on the host: it calls 'weight', which uses the global 'weights' (only the globals a loop names itself are mapped; declare it with 'declare target' or pass it as an argument)
#pragma omp parallel for
  for (int i = 0; i < 1000; i++) a[i] *= weight(i);
  // REMARK: host-loops.c:[[@LINE+1]]:13: remark: parallel for stays on the host: its lastprivate clause (last values are not brought back from the device yet)
#pragma omp parallel for lastprivate(last)
  for (int i = 0; i < 1000; i++) last = a[i];
  // REMARK: host-loops.c:[[@LINE+1]]:13: remark: parallel for stays on the host: its ordered clause
#pragma omp parallel for ordered
  for (int i = 0; i < 10; i++) {
#pragma omp ordered
    count++;
  }
  // REMARK-NOT: remark
  // CHECK: #pragma omp target teams distribute parallel for reduction(+:total)
#pragma omp parallel for reduction(+:total)
  for (int i = 0; i < 1000; i++) total += cube(a[i]) / 1e9;
  // OUT: last=1000 count=10 total=
  printf("last=%g count=%d total=%.3f\n", last, count, total);
  return 0;
}
