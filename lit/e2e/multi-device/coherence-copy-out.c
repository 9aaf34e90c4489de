// Copies out of data that split launches spread over the devices take each byte from the
// device that holds it current, straight to the host (OpenMP 5.2 target update from, exit data
// map(from)): device 0 (the data's home) is not a relay. What must still hold:
//   - an `exit data map(from)` that only lowers the reference count copies nothing: the host
//     keeps its own values although the devices hold newer ones;
//   - an `update from` of a section takes only that section, from both devices where it
//     straddles the split, and leaves the other host bytes alone;
//   - a `nowait` update from is complete after the taskwait;
//   - after an `update to`, device 1's copy of its half is stale: its next part fetches it
//     again, and the final copy out gives what that part wrote.
// 1024 doubles, split [0, 512) on device 0 and [512, 1024) on device 1 (8192 bytes, 4096 a half).
// RUN: %ptxcc -fopenmp -fptxcc-multi-device -O2 %s -o %t
// RUN: env PTXRT_EMU_DEVICES=1 PTXSIM_DEVICES=1 %run %t | FileCheck %s
// RUN: env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 PTXRT_DEBUG=1 %run %t 2>&1 | FileCheck %s --check-prefixes=CHECK,SPLIT
// RUN: env PTXRT_EMU_DEVICES=3 PTXSIM_DEVICES=3 %run %t | FileCheck %s
// RUN: rm -f %t.json
// RUN: env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 PTXRT_PROFILE=json:%t.json %run %t | FileCheck %s
// RUN: FileCheck %s --check-prefix=BYTES < %t.json
// SPLIT: ptxrt: split {{.*}} 1024 iterations: [0, 512) on device 0, [512, 1024) on device 1
// CHECK: held back: 0 wrong
// CHECK-NEXT: section: 0 wrong
// CHECK-NEXT: nowait: 0 wrong
// CHECK-NEXT: final: 0 wrong
// Device 0: 8192 in at enter data and 8192 at the update to; out, its half of each copy
// (2048 of the section, 4096 of the nowait update, 4096 at the end), never a peer byte in.
// Device 1: its half (4096) from device 0 before each of the two launches (the first writes
// only part of what its window holds, the second reads what the update to made stale), and
// out its half of each copy, as device 0.
// BYTES: "devices": [
// BYTES-NEXT: {"id": 0, {{.*}} "h2d_bytes": 16384, "d2h_bytes": 10240, "peer_bytes": 0,
// BYTES-NEXT: {"id": 1, {{.*}} "h2d_bytes": 0, "d2h_bytes": 10240, "peer_bytes": 8192,
#include <stdio.h>
#define N 1024

static double a[N];

static int wrong(double (*expect)(int), int lo, int hi) {
  int bad = 0;
  for (int i = lo; i < hi; i++)
    bad += a[i] != expect(i);
  return bad;
}

static double initial(int i) { return -i; }
static double first(int i) { return 3.0 * i + 1; }
static double rewritten(int i) { return 0.5 * i; }
static double second(int i) { return 0.5 * i + 2; }

int main(void) {
  for (int i = 0; i < N; i++)
    a[i] = initial(i);
#pragma omp target enter data map(to : a[0 : N])
#pragma omp target enter data map(to : a[0 : N])
#pragma omp target teams distribute parallel for
  for (int i = 0; i < N; i++)
    a[i] = 3.0 * i + 1;
  // The reference count goes from 2 to 1: nothing is copied.
#pragma omp target exit data map(from : a[0 : N])
  printf("held back: %d wrong\n", wrong(initial, 0, N));
  // A section across the split: [256, 768).
#pragma omp target update from(a[256 : 512])
  printf("section: %d wrong\n",
         wrong(initial, 0, 256) + wrong(first, 256, 768) + wrong(initial, 768, N));
#pragma omp target update from(a[0 : N]) nowait
#pragma omp taskwait
  printf("nowait: %d wrong\n", wrong(first, 0, N));
  for (int i = 0; i < N; i++)
    a[i] = rewritten(i);
#pragma omp target update to(a[0 : N])
#pragma omp target teams distribute parallel for
  for (int i = 0; i < N; i++)
    a[i] += 2;
  for (int i = 0; i < N; i++)
    a[i] = initial(i);
#pragma omp target exit data map(from : a[0 : N])
  printf("final: %d wrong\n", wrong(second, 0, N));
  return 0;
}
