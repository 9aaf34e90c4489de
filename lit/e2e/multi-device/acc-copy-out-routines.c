// The OpenACC routines that copy data out (acc_update_self, acc_copyout) take the bytes a split
// loop left on another device from that device, straight to the host, as the directives do
// (coherence-copy-out.c): device 0, where the data is present, relays nothing.
// 1024 doubles, the loop split [0, 512) on device 0 and [512, 1024) on device 1.
// RUN: %ptxcc -fopenacc -fptxcc-multi-device -O2 %s -o %t
// RUN: env PTXRT_EMU_DEVICES=1 PTXSIM_DEVICES=1 %run %t | FileCheck %s
// RUN: env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 PTXRT_DEBUG=1 %run %t 2>&1 | FileCheck %s --check-prefixes=CHECK,SPLIT
// RUN: rm -f %t.json
// RUN: env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 PTXRT_PROFILE=json:%t.json %run %t | FileCheck %s
// RUN: FileCheck %s --check-prefix=BYTES < %t.json
// SPLIT: ptxrt: split {{.*}} 1024 iterations: [0, 512) on device 0, [512, 1024) on device 1
// CHECK: section: 0 wrong
// CHECK-NEXT: copyout: 0 wrong
// Device 0: 8192 in, out its part of the section (2048) and its half at acc_copyout (4096).
// Device 1: its half from device 0 before its part runs (4096, peer), out its part of the
// section (2048) and its half at acc_copyout (4096).
// BYTES: "devices": [
// BYTES-NEXT: {"id": 0, {{.*}} "h2d_bytes": 8192, "d2h_bytes": 6144, "peer_bytes": 0,
// BYTES-NEXT: {"id": 1, {{.*}} "h2d_bytes": 0, "d2h_bytes": 6144, "peer_bytes": 4096,
#include <openacc.h>
#include <stdio.h>
#define N 1024

static double a[N];

int main(void) {
  for (int i = 0; i < N; i++)
    a[i] = -i;
#pragma acc enter data copyin(a[0 : N])
#pragma acc parallel loop present(a[0 : N])
  for (int i = 0; i < N; i++)
    a[i] = 3.0 * i + 1;
  acc_update_self(a + 256, 512 * sizeof(double));
  int bad = 0;
  for (int i = 0; i < N; i++)
    bad += a[i] != (i >= 256 && i < 768 ? 3.0 * i + 1 : -i);
  printf("section: %d wrong\n", bad);
  acc_copyout(a, N * sizeof(double));
  bad = 0;
  for (int i = 0; i < N; i++)
    bad += a[i] != 3.0 * i + 1;
  printf("copyout: %d wrong\n", bad);
  return 0;
}
