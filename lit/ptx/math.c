// Math functions come from libclc and are inlined: no call in the kernel, double and float.
// RUN: %ptxcc -fopenmp -O2 --emit=ptx %s -o - | FileCheck %s
// CHECK: .visible .entry
// CHECK-NOT: call
// CHECK: ret;
#include <math.h>
void f(int n, double *d, float *s) {
#pragma omp target teams distribute parallel for map(tofrom: d[0:n], s[0:n])
  for (int i = 0; i < n; i++) {
    d[i] = sin(d[i]) + cos(d[i]) + exp(d[i]) + log(d[i]) + pow(d[i], 1.5) + sqrt(d[i]) + fabs(d[i]) + floor(d[i]) + fmin(d[i], 2.0) + fmax(d[i], 1.0);
    s[i] = sinf(s[i]) + cosf(s[i]) + expf(s[i]) + logf(s[i]) + powf(s[i], 1.5f) + sqrtf(s[i]) + fabsf(s[i]) + floorf(s[i]) + fminf(s[i], 2.0f) + fmaxf(s[i], 1.0f);
  }
}
