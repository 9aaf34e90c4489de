// _Complex reductions (+ and *, no native atomic: the kernel runs as one team) and an
// array-section reduction, on the device and in the host fallback (libatomic for 16-byte types).
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: %run %t | FileCheck %s
// RUN: env OMP_TARGET_OFFLOAD=DISABLED %t | FileCheck %s
// CHECK: PASS
#include <stdio.h>
#include <complex.h>
int main(void) {
  enum { N = 10007 };
  static double x[N];
  for (int i = 0; i < N; i++) x[i] = (i % 13) * 0.25 - 1.0;
  _Complex double c = 0, cw = 0; _Complex float cf = 1, cfw = 1;
  int hist[10] = {0}, hw[10] = {0};
  for (int i = 0; i < N; i++) { cw += x[i] + 2.0 * I * x[i]; hw[i % 10] += 1; }
  for (int i = 0; i < 20; i++) cfw *= (1.0f + 0.01f * I);
#pragma omp target teams distribute parallel for map(to: x[0:N]) reduction(+: c)
  for (int i = 0; i < N; i++) c += x[i] + 2.0 * I * x[i];
#pragma omp target teams distribute parallel for reduction(*: cf)
  for (int i = 0; i < 20; i++) cf *= (1.0f + 0.01f * I);
#pragma omp target teams distribute parallel for reduction(+: hist[0:10])
  for (int i = 0; i < N; i++) hist[i % 10] += 1;
  int ok = cabs(c - cw) < 1e-6 * cabs(cw) && cabsf(cf - cfw) < 1e-4f;
  for (int k = 0; k < 10; k++) ok &= hist[k] == hw[k];
  printf("%s c=%g%+gi cf=%g%+gi hist0=%d\n", ok ? "PASS" : "FAIL", creal(c), cimag(c), crealf(cf), cimagf(cf), hist[0]);
  return !ok;
}
