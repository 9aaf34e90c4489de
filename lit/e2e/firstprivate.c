// Scalars in target regions: implicitly firstprivate (read on the device, host value unchanged after a
// device write), explicitly firstprivate, firstprivate of a struct, and map(tofrom) for a scalar result.
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t | FileCheck %s
// CHECK: PASS
#include <stdio.h>

struct coef {
  double a, b;
  int k;
};

int main(void) {
  enum { N = 777 };
  double out[N], scale = 2.5, seen = 0.0;
  int offset = 7, k = 3;
  struct coef c = {0.5, -1.0, 4};
  long count = 123;
#pragma omp target teams distribute parallel for map(from : out) firstprivate(offset)
  for (int i = 0; i < N; i++)
    out[i] = scale * i + offset + c.a * c.k + c.b;
#pragma omp target firstprivate(k) map(tofrom : seen)
  {
    k = k * 100;   /* the device's private copy */
    scale = -1.0;  /* implicitly firstprivate: the host's stays 2.5 */
    seen = k + 1;  /* mapped tofrom: comes back */
  }
#pragma omp target map(tofrom : count)
  count += 1000;
  int ok = 1;
  for (int i = 0; i < N; i++)
    if (out[i] != 2.5 * i + 7 + 0.5 * 4 - 1.0) {
      ok = 0;
      printf("out[%d] = %g\n", i, out[i]);
      break;
    }
  printf("k=%d scale=%g seen=%g count=%ld\n", k, scale, seen, count);
  ok &= k == 3 && scale == 2.5 && seen == 301 && count == 1123;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return !ok;
}
