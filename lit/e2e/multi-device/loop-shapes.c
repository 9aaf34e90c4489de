// Loop shapes whose access ranges used to be "whole section" (every device copied the whole
// arrays in and out): unsigned and size_t counters (clang tests `iv < ub + 1`, not
// `iv <= ub`), a step of 2, a reversed index `n - 1 - i` (clang writes `~i + n`: an xor), a
// loop counting down. Each is split over the devices with exact ranges, and gives the serial
// answer on 1..4 devices and on ptxsim.
// RUN: %ptxcc -fopenmp -fptxcc-multi-device -fptxcc-info -O2 %s -o %t 2>&1 | FileCheck %s --check-prefix=INFO --implicit-check-not="whole section"
// RUN: env PTXRT_EMU_DEVICES=1 PTXSIM_DEVICES=1 %run %t | FileCheck %s
// RUN: env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 PTXRT_DEBUG=1 %run %t 2>&1 | FileCheck %s
// RUN: env PTXRT_EMU_DEVICES=3 PTXSIM_DEVICES=3 %run %t | FileCheck %s
// RUN: env PTXRT_EMU_DEVICES=4 PTXSIM_DEVICES=4 %run %t | FileCheck %s
// INFO: access ranges of kernel '{{.*}}by_unsigned{{.*}}': argument 3: read [4*i, 4*i + 4); argument 2: written [4*i, 4*i + 4)
// INFO: access ranges of kernel '{{.*}}by_size_t{{.*}}': argument 3: read [8*arg1 - 8*i - 8, 8*arg1 - 8*i); argument 2: written [8*i, 8*i + 8)
// INFO: access ranges of kernel '{{.*}}by_two{{.*}}': argument 3: read [16*i + 8, 16*i + 16); argument 2: written [16*i, 16*i + 8)
// INFO: access ranges of kernel '{{.*}}down{{.*}}': argument 3: read [-8*i + 8*arg1 - 8, -8*i + 8*arg1); argument 2: written [-8*i + 8*arg1 - 8, -8*i + 8*arg1)
// CHECK: 0 mismatches
#include <stddef.h>
#include <stdio.h>
#define N 1001

static void by_unsigned(unsigned n, float *y, const float *x) {
#pragma omp target teams distribute parallel for map(to : x[0:n]) map(tofrom : y[0:n])
  for (unsigned i = 0; i < n; i++)
    y[i] = 3 * x[i];
}

static void by_size_t(size_t n, double *y, const double *x) {
#pragma omp target teams distribute parallel for map(to : x[0:n]) map(tofrom : y[0:n])
  for (size_t i = 0; i < n; i++)
    y[i] = x[n - 1 - i];
}

static void by_two(int n, double *y, const double *x) {
#pragma omp target teams distribute parallel for map(to : x[0:n]) map(tofrom : y[0:n])
  for (int i = 0; i < n - 1; i += 2)
    y[i] = 2 * x[i + 1];
}

static void down(int n, double *y, const double *x) {
#pragma omp target teams distribute parallel for map(to : x[0:n]) map(tofrom : y[0:n])
  for (int i = n - 1; i >= 0; i--)
    y[i] = x[i] + 1;
}

int main(void) {
  static float xf[N], yf[N];
  static double x[N], y[N], z[N], w[N];
  for (int i = 0; i < N; i++) {
    xf[i] = (float)(i % 13);
    x[i] = i * 0.5;
    yf[i] = -1.0f;
    y[i] = z[i] = w[i] = -1.0;
  }
  by_unsigned(N, yf, xf);
  by_size_t(N, y, x);
  by_two(N, z, x);
  down(N, w, x);
  int bad = 0;
  for (int i = 0; i < N; i++) {
    bad += yf[i] != 3 * xf[i];
    bad += y[i] != x[N - 1 - i];
    bad += z[i] != (i % 2 == 0 && i < N - 1 ? 2 * x[i + 1] : -1.0);
    bad += w[i] != x[i] + 1;
  }
  printf("%d mismatches\n", bad);
  return bad != 0;
}
