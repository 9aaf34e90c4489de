// PTXRT_PROFILE=json:PATH writes the profile as JSON: per device what the constructs moved to and
// from it, what it received from other devices and the kernels it ran; per construct and device
// the copies. Three devices, each with a different amount of data (device 2 also moves the 4-byte
// reduction variable both ways).
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: rm -f %t.json
// RUN: env PTXRT_EMU_DEVICES=3 PTXSIM_DEVICES=3 PTXRT_PROFILE=json:%t.json %run %t | FileCheck %s --check-prefix=OUT
// RUN: %python -c "import json, sys; json.load(open(sys.argv[1]))" %t.json
// RUN: FileCheck %s < %t.json
// RUN: env PTXRT_PROFILE=json: %run not %t 2>&1 | FileCheck %s --check-prefix=NONAME
// OUT: PASS
// CHECK: "devices": [
// CHECK-NEXT: {"id": 0, "kind": "{{emulator|cuda}}", "label": "0 ({{.*}})", "h2d_bytes": 8000, "d2h_bytes": 8000, "peer_bytes": 0, "kernels": 1, "kernel_time_s": {{[0-9.e-]+}}},
// CHECK-NEXT: {"id": 1, "kind": "{{emulator|cuda}}", "label": "1 ({{.*}})", "h2d_bytes": 0, "d2h_bytes": 0, "peer_bytes": 800, "kernels": 0, "kernel_time_s": 0e0},
// CHECK-NEXT: {"id": 2, "kind": "{{emulator|cuda}}", "label": "2 ({{.*}})", "h2d_bytes": 4004, "d2h_bytes": 4, "peer_bytes": 0, "kernels": 1, "kernel_time_s": {{[0-9.e-]+}}}
// CHECK-NEXT: ],
// CHECK: "kernels": [
// CHECK-DAG: "device": 0, "launches": 1
// CHECK-DAG: "device": 2, "launches": 1
// CHECK: "regions": [
// CHECK-DAG: {"location": "{{.*}}profile-json.c:{{[0-9]+}}:{{[0-9]+}}", "function": "main", "device": 0, "h2d_bytes": 8000, "h2d_copies": 1,
// CHECK-DAG: "device": 2, "h2d_bytes": 4004, "h2d_copies": 2,
// NONAME: PTXRT_PROFILE=json: needs a file name
#include <omp.h>
#include <stdio.h>

#define N 1000

int main(void) {
  static double a[N];
  static float b[N];
  for (int i = 0; i < N; i++) {
    a[i] = i;
    b[i] = i;
  }
#pragma omp target teams distribute parallel for map(tofrom : a[0:N]) device(0)
  for (int i = 0; i < N; i++)
    a[i] *= 2;
  float sum = 0;
#pragma omp target teams distribute parallel for reduction(+ : sum) map(to : b[0:N]) device(2)
  for (int i = 0; i < N; i++)
    sum += b[i];
  char *d1 = omp_target_alloc(800, 1), *d2 = omp_target_alloc(800, 2);
  int ok = omp_target_memcpy(d1, d2, 800, 0, 0, 1, 2) == 0;
  omp_target_free(d1, 1);
  omp_target_free(d2, 2);
  ok = ok && a[10] == 20 && sum == N * (N - 1) / 2;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return !ok;
}
