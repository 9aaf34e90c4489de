// -fptxcc-layout=auto leaves alone the arrays of a data region whose code takes device
// addresses (issue 18): a nested use_device_addr region, or a function called in the region
// that calls omp_get_mapped_ptr. (With use_device_addr on the region itself, its kernels get
// the device address, not the array: nothing to lay out.) Such code reads the device copy
// as the host lays it out; a converted copy would give it other bytes, silently. So does an
// array whose address a global pointer keeps (its device copy would point into the converted
// array). Each region runs its kernel in a loop (without any of these, v becomes v[48][64]:
// the last region shows it) and reads element [1][0] through the device address.
// RUN: %ptxcc -fopenmp -O2 -fptxcc-layout=auto -fptxcc-info %s -o %t 2>&1 | FileCheck %s --check-prefix=INFO
// RUN: %run %t | FileCheck %s
// INFO-DAG: auto-device-addresses.c:[[#NESTED:]]:1: layout: v[64][48] stays: the data region uses device addresses (use_device_ptr, use_device_addr or host_data use_device), which would see the converted copy
// INFO-DAG: auto-device-addresses.c:[[#]]:1: layout: v[64][48] stays: the data region uses device addresses ('omp_get_mapped_ptr', in 'peek'), which would see the converted copy
// INFO-DAG: auto-device-addresses.c:[[#]]:1: layout: w[64][48] stays: safety cannot be proved (its address is kept in 'wp', a pointer the device may follow into the converted copy)
// INFO-DAG: auto-device-addresses.c:[[#]]:1: layout: v[64][48] -> [48][64] (coalesced on dimension 1: 2 of 2 accesses)
// CHECK: same region: ok
// CHECK: nested: ok
// CHECK: called: ok
// CHECK: global pointer: ok
// CHECK: plain: ok
// CHECK: PASS
#include <omp.h>
#include <stdio.h>

#define I 64
#define J 48
static float v[I][J], w[I][J];
float *wp = &w[0][0];

static float raw_10(const void *dev_v) {
  float x = -1;
  omp_target_memcpy(&x, dev_v, sizeof x, 0, J * sizeof(float), omp_get_initial_device(),
                    omp_get_default_device());
  return x;
}

static float peek(void) { return raw_10(omp_get_mapped_ptr(v, omp_get_default_device())); }

static int report(const char *what, float (*a)[J], float seen, int times) {
  int bad = seen != 1;
  for (int i = 0; i < I; i++)
    for (int j = 0; j < J; j++) {
      bad += a[i][j] != i + 0.25f * j + (j == 0 ? times : 0);
      a[i][j] = i + 0.25f * j;
    }
  printf("%s: %s\n", what, bad ? "WRONG" : "ok");
  return bad;
}

int main(int argc, char **argv) {
  (void)argv;
  int iters = 2 + (argc > 8), bad = 0;
  for (int i = 0; i < I; i++)
    for (int j = 0; j < J; j++)
      v[i][j] = w[i][j] = i + 0.25f * j;
  float seen = -1;
#pragma omp target data map(tofrom : v) use_device_addr(v)
  {
    seen = raw_10(v);
    for (int it = 0; it < iters; it++) {
#pragma omp target teams distribute parallel for
      for (int i = 0; i < I; i++)
        v[i][0] += 1;
    }
  }
  bad += report("same region", v, seen, iters);
#pragma omp target data map(tofrom : v)
  {
#pragma omp target data use_device_addr(v)
    seen = raw_10(v);
    for (int it = 0; it < iters; it++) {
#pragma omp target teams distribute parallel for
      for (int i = 0; i < I; i++)
        v[i][0] += 1;
    }
  }
  bad += report("nested", v, seen, iters);
#pragma omp target data map(tofrom : v)
  {
    seen = peek();
    for (int it = 0; it < iters; it++) {
#pragma omp target teams distribute parallel for
      for (int i = 0; i < I; i++)
        v[i][0] += 1;
    }
  }
  bad += report("called", v, seen, iters);
#pragma omp target data map(tofrom : w)
  for (int it = 0; it < iters; it++) {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < I; i++)
      w[i][0] += 1;
  }
  bad += report("global pointer", w, 1, iters);
#pragma omp target data map(tofrom : v)
  for (int it = 0; it < iters; it++) {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < I; i++)
      v[i][0] += 1;
  }
  bad += report("plain", v, 1, iters);
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
