// acc_on_device in device code (a routine and a compute construct) answers for the device:
// true for acc_device_not_host and acc_device_nvidia, false for acc_device_host; on the host
// the other way round.
// REQUIRES: libptxrt
// RUN: %ptxcc -fopenacc %s -o %t && %run %t | FileCheck %s
// CHECK: PASS
#include <openacc.h>
#include <stdio.h>

#pragma acc routine seq
static int where(void) {
  // 1: device, 2: host; each question asked.
  return acc_on_device(acc_device_not_host) + 2 * acc_on_device(acc_device_host) + 4 * acc_on_device(acc_device_nvidia);
}

int main(void) {
  int r[64], bad = 0;
  #pragma acc parallel loop copyout(r)
  for (int i = 0; i < 64; i++) r[i] = where() + 8 * acc_on_device(i % 2 ? acc_device_nvidia : acc_device_host);
  for (int i = 0; i < 64; i++)
    if (r[i] != 5 + (i % 2 ? 8 : 0)) bad++;
  if (where() != 2) bad++;
  printf("%s %d %d\n", bad ? "FAIL" : "PASS", r[0], r[1]);
  return bad;
}
