// auto-exposed-moves.c under -fopenacc: a device address the program got before a region of
// -fptxcc-layout=auto (acc_deviceptr, the result of acc_copyin, host_data use_device) still
// reaches the array after the region converted it and back: the copy was converted in place,
// not moved (Entry::exposed).
// RUN: %ptxcc -fopenacc -O2 -fptxcc-layout=auto -fptxcc-info %s -o %t 2>&1 | FileCheck %s --check-prefix=INFO
// RUN: %run %t | FileCheck %s
// INFO: auto-exposed-moves-acc.c:[[#]]:1: layout: v[64][48] -> [48][64]
// CHECK: acc_deviceptr: ok
// CHECK: acc_copyin: ok
// CHECK: host_data: ok
// CHECK: PASS
#include <openacc.h>
#include <stdio.h>

#define I 64
#define J 48
static float v[I][J];
static float sum[I];

static void rows(void) {
#pragma acc data copyin(v) copy(sum)
  for (int it = 0; it < 8; it++) {
#pragma acc parallel loop
    for (int i = 0; i < I; i++) {
      float s = 0;
      for (int j = 0; j < J; j++)
        s += v[i][j];
      sum[i] += s;
    }
  }
}

static float through(float *d) {
  float x = -1;
#pragma acc serial deviceptr(d) copyout(x)
  x = d[1 * J + 0];
  return x;
}

static int sums_ok(void) {
  int bad = 0;
  for (int i = 0; i < I; i++) {
    float s = 0;
    for (int j = 0; j < J; j++)
      s += v[i][j];
    bad += sum[i] != 8 * s;
    sum[i] = 0;
  }
  return !bad;
}

static int check(const char *what, float *d) {
  rows();
  int r = sums_ok() && through(d) == v[1][0];
  printf("%s: %s\n", what, r ? "ok" : "WRONG");
  return r;
}

int main(void) {
  for (int i = 0; i < I; i++)
    for (int j = 0; j < J; j++)
      v[i][j] = i + 0.25f * j;
  int ok = 1;

#pragma acc data copyin(v)
  ok &= check("acc_deviceptr", acc_deviceptr(v));

  float *d = acc_copyin(v, sizeof v);
  ok &= check("acc_copyin", d);
  acc_delete(v, sizeof v);

#pragma acc data copyin(v)
  {
    float *h = 0;
#pragma acc host_data use_device(v)
    h = &v[0][0];
    ok &= check("host_data", h);
  }
  printf("%s\n", ok ? "PASS" : "FAIL");
  return 0;
}
