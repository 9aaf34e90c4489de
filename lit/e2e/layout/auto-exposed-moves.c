// A device address the program was given before a region of -fptxcc-layout=auto (in an
// enclosing data region: omp_get_mapped_ptr, use_device_addr) stays valid after the region
// converted the array: libptxrt converts such a copy in place instead of moving it into new
// device memory (layout::convert_by_moving, Entry::exposed). A moved copy left the program a
// pointer to freed device memory (ptxsim: an illegal address; the emulator: a segmentation
// fault, freed device memory staying inaccessible for a while). Each inner region sums v's
// rows, a thread a row, in a loop (auto lays v out as [48][64]); the kernel after it reads
// v[1][0] through the address taken before.
// RUN: %ptxcc -fopenmp -O2 -fptxcc-layout=auto -fptxcc-info %s -o %t 2>&1 | FileCheck %s --check-prefix=INFO
// RUN: %run %t | FileCheck %s
// RUN: env PTXRT_LAYOUT_AUTO=always %run %t | FileCheck %s
// INFO: auto-exposed-moves.c:[[#]]:1: layout: v[64][48] -> [48][64]
// CHECK: mapped ptr: ok
// CHECK: use_device_addr: ok
// CHECK: PASS
#include <omp.h>
#include <stdio.h>

#define I 64
#define J 48
static float v[I][J];
static float sum[I];

static void rows(void) {
#pragma omp target data map(to : v) map(tofrom : sum)
  for (int it = 0; it < 8; it++) {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < I; i++) {
      float s = 0;
      for (int j = 0; j < J; j++)
        s += v[i][j];
      sum[i] += s;
    }
  }
}

static float through(const float *d) {
  float x = -1;
#pragma omp target is_device_ptr(d) map(from : x)
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

int main(void) {
  for (int i = 0; i < I; i++)
    for (int j = 0; j < J; j++)
      v[i][j] = i + 0.25f * j;
  int ok = 1, dev = omp_get_default_device();

#pragma omp target data map(to : v)
  {
    const float *d = omp_get_mapped_ptr(&v[0][0], dev);
    rows();
    int r = sums_ok() && through(d) == v[1][0];
    printf("mapped ptr: %s\n", r ? "ok" : "WRONG");
    ok &= r;
  }

#pragma omp target data map(to : v)
  {
    const float *d = 0;
#pragma omp target data use_device_addr(v)
    d = &v[0][0];
    rows();
    int r = sums_ok() && through(d) == v[1][0];
    printf("use_device_addr: %s\n", r ? "ok" : "WRONG");
    ok &= r;
  }
  printf("%s\n", ok ? "PASS" : "FAIL");
  return 0;
}
