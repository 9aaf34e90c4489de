// declare create on globals (with update), declare copyin in a function, routine seq functions
// called from kernels.
// REQUIRES: libptxrt
// RUN: %ptxcc -fopenacc %s -o %t && %run %t | FileCheck %s
// CHECK: PASS
#include <stdio.h>
#define N 512
float coef[N];
#pragma acc declare create(coef)
int table[16];
#pragma acc declare link(table)

#pragma acc routine seq
static float poly(float x, int k) {
  float r = 0;
  for (int i = 0; i < k; i++) r = r * x + 1;
  return r;
}

float twice(float x);
#pragma acc routine(twice) seq
float twice(float x) { return 2 * x; }

static int local_declare(float *out) {
  float tmp[N];
  for (int i = 0; i < N; i++) tmp[i] = i;
  #pragma acc declare copyin(tmp)
  #pragma acc parallel loop copyout(out[0:N])
  for (int i = 0; i < N; i++) out[i] = tmp[i] + coef[i];
  return 0;
}

int main(void) {
  int bad = 0;
  static float out[N];
  for (int i = 0; i < N; i++) coef[i] = i * 0.5f;
  #pragma acc update device(coef)
  #pragma acc parallel loop copyout(out)
  for (int i = 0; i < N; i++) out[i] = twice(coef[i]) + poly(0.5f, i % 8);
  for (int i = 0; i < N; i++) {
    float want = 2 * (i * 0.5f) + poly(0.5f, i % 8);
    if (out[i] != want) { printf("routine %d %f %f\n", i, out[i], want); bad++; break; }
  }
  // The device copy of coef changes; the host sees it after update self.
  #pragma acc parallel loop
  for (int i = 0; i < N; i++) coef[i] = -i;
  if (coef[3] != 1.5f) { printf("host copy changed early\n"); bad++; }
  #pragma acc update self(coef)
  if (coef[3] != -3) { printf("update self coef %f\n", coef[3]); bad++; }
  // link: the global is on the device where a data clause maps it.
  for (int i = 0; i < 16; i++) table[i] = i * i;
  #pragma acc data copyin(table)
  {
    #pragma acc parallel loop copyout(out[0:16])
    for (int i = 0; i < 16; i++) out[i] = table[15 - i];
  }
  for (int i = 0; i < 16; i++) if (out[i] != (15 - i) * (15 - i)) { printf("link %d\n", i); bad++; break; }
  local_declare(out);
  for (int i = 0; i < N; i++) if (out[i] != 0) { printf("declare copyin %d %f\n", i, out[i]); bad++; break; }
  printf("%s %d\n", bad ? "FAIL" : "PASS", bad);
  return bad != 0;
}
