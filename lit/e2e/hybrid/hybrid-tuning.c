// Without PTXRT_CPU_WEIGHT the runtime tunes the host's share of each hybrid loop as it runs:
// the first run splits evenly between the host and each device, each later one moves the share
// toward the one that makes both sides finish together. A host made slow (the test hook
// PTXRT_TEST_HOST_DELAY_NS sleeps that long per host iteration) gives its iterations back to
// the device within the 6 runs: the share ends below half (the delay holds the host under 10,000
// iterations a second; a device would have to be slower still), and it is the one the tuning
// rule gives from the last run's times (Inputs/hybrid_tuning_check.py). PTXRT_PROFILE (json and text) reports the share, the runs and
// the last times of each side; PTXRT_TUNING_FILE keeps the learned share across runs of the
// program. (tune.rs's unit tests check the convergence itself: within 10% in 5 runs.)
// RUN: %ptxcc -fopenmp -fptxcc-hybrid -O2 %s -o %t
// RUN: rm -f %t.json %t.tune
// RUN: env PTXRT_TEST_HOST_DELAY_NS=100000 PTXRT_PROFILE=json:%t.json %run %t 6 | FileCheck %s
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: %python %S/../Inputs/hybrid_tuning_check.py %t.json 2000 6 --below 0.5
// RUN: env PTXRT_CPU_WEIGHT=0.5 PTXRT_PROFILE=1 %run %t 2 2>&1 | FileCheck %s --check-prefix=FIXED
// RUN: env PTXRT_TUNING_FILE=%t.tune %run %t 3 | FileCheck %s
// RUN: FileCheck %s --check-prefix=FILE3 < %t.tune
// RUN: env PTXRT_TUNING_FILE=%t.tune PTXRT_PROFILE=1 %run %t 2 2>&1 | FileCheck %s --check-prefix=AGAIN
// RUN: FileCheck %s --check-prefix=FILE5 < %t.tune
// RUN: echo "damaged" > %t.bad
// RUN: env PTXRT_TUNING_FILE=%t.bad %run %t 1 2>&1 | FileCheck %s --check-prefix=BAD
// CHECK: PASS
// JSON: "hybrid": [
// JSON-NEXT: {"source": "{{.*}}hybrid-tuning.c:[[#LOOP:]]:1", "name": "__omp_offloading_{{.*}}", "cpu_share": {{[0-9.e-]+}}, "runs": 6, "tuned_runs": 6, "last_host_iterations": {{[0-9]+}}, "last_host_time_s": {{[0-9.e-]+}}, "last_device_iterations": {{[0-9]+}}, "last_device_time_s": {{[0-9.e-]+}}}
// FIXED: hybrid loops (host share of the iterations):
// FIXED-NEXT: hybrid-tuning.c:{{[0-9]+}}:1: __omp_offloading_{{.*}}
// FIXED-NEXT: runs: 2  cpu share: 0.500 (PTXRT_CPU_WEIGHT)  last run: host 1000 iterations in {{.*}}, devices 1000 in {{.*}}
// FILE3: # ptxcc hybrid tuning: kernel, host share, runs measured, source
// FILE3-NEXT: __omp_offloading_{{[^ ]+}} {{[0-9.e-]+}} 3 {{.*}}hybrid-tuning.c:{{[0-9]+}}:1
// AGAIN: runs: 2  cpu share: {{.*}} (tuned over 5 runs)
// FILE5: __omp_offloading_{{[^ ]+}} {{[0-9.e-]+}} 5 {{.*}}hybrid-tuning.c:{{[0-9]+}}:1
// BAD: ptxrt: warning: PTXRT_TUNING_FILE={{.*}}.bad: line 1: expected 'kernel share runs source'; starting without it
// BAD: PASS
#include <stdio.h>
#include <stdlib.h>

#define N 2000
static double a[N], b[N];

int main(int argc, char **argv) {
  int runs = argc > 1 ? atoi(argv[1]) : 1;
  for (int i = 0; i < N; i++)
    a[i] = i % 13;
  for (int r = 0; r < runs; r++) {
#pragma omp target teams distribute parallel for map(to : a) map(tofrom : b)
    for (int i = 0; i < N; i++)
      b[i] += 2.0 * a[i] + 1.0;
  }
  int ok = 1;
  for (int i = 0; i < N; i++)
    ok &= b[i] == runs * (2.0 * (i % 13) + 1.0);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return 0;
}
