// Math library calls in a kernel, in double and float: sin cos exp log pow sqrt fabs floor fmin fmax
// (and sinf ... fmaxf), compared with the host's libm within a few ulps (floor/fabs/fmin/fmax exactly).
// Both math libraries: libdevice (the default where a CUDA installation has it) and libclc.
// RUN: %ptxcc -fopenmp -O2 %s -o %t -lm
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t | FileCheck %s
// RUN: %ptxcc -fopenmp -O2 -fptxcc-math-library=libclc %s -o %t.clc -lm
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t.clc | FileCheck %s
// CHECK: double: 0 mismatches
// CHECK: float: 0 mismatches
// CHECK: PASS
#include <math.h>
#include <stdio.h>

#define N 512
#define NF 10

static int close_d(double a, double b, double ulps) {
  if (a == b)
    return 1;
  return fabs(a - b) <= ulps * 2.220446049250313e-16 * fmax(fabs(a), fabs(b));
}
static int close_f(float a, float b, float ulps) {
  if (a == b)
    return 1;
  return fabsf(a - b) <= ulps * 1.1920929e-7f * fmaxf(fabsf(a), fabsf(b));
}

int main(void) {
  double x[N], d[N][NF];
  float xf[N], f[N][NF];
  for (int i = 0; i < N; i++) {
    x[i] = -8.0 + 16.0 * i / N + 1e-3;
    xf[i] = (float)x[i];
  }
#pragma omp target teams distribute parallel for map(to : x, xf) map(from : d, f)
  for (int i = 0; i < N; i++) {
    double v = x[i], a = fabs(v) + 0.5;
    d[i][0] = sin(v);
    d[i][1] = cos(v);
    d[i][2] = exp(v);
    d[i][3] = log(a);
    d[i][4] = pow(a, 1.7);
    d[i][5] = sqrt(a);
    d[i][6] = fabs(v);
    d[i][7] = floor(v);
    d[i][8] = fmin(v, 0.25);
    d[i][9] = fmax(v, 0.25);
    float w = xf[i], b = fabsf(w) + 0.5f;
    f[i][0] = sinf(w);
    f[i][1] = cosf(w);
    f[i][2] = expf(w);
    f[i][3] = logf(b);
    f[i][4] = powf(b, 1.7f);
    f[i][5] = sqrtf(b);
    f[i][6] = fabsf(w);
    f[i][7] = floorf(w);
    f[i][8] = fminf(w, 0.25f);
    f[i][9] = fmaxf(w, 0.25f);
  }
  static const char *names[NF] = {"sin", "cos", "exp", "log", "pow", "sqrt", "fabs", "floor", "fmin", "fmax"};
  int bad_d = 0, bad_f = 0;
  for (int i = 0; i < N; i++) {
    double v = x[i], a = fabs(v) + 0.5;
    double hd[NF] = {sin(v), cos(v), exp(v), log(a), pow(a, 1.7), sqrt(a), fabs(v), floor(v), fmin(v, 0.25),
                     fmax(v, 0.25)};
    float w = xf[i], b = fabsf(w) + 0.5f;
    float hf[NF] = {sinf(w), cosf(w), expf(w), logf(b), powf(b, 1.7f), sqrtf(b), fabsf(w), floorf(w),
                    fminf(w, 0.25f), fmaxf(w, 0.25f)};
    for (int k = 0; k < NF; k++) {
      double tol = k >= 6 ? 0 : 4; /* fabs floor fmin fmax are exact */
      if (!close_d(d[i][k], hd[k], tol) && bad_d++ < 5)
        printf("%s(%.17g): device %.17g host %.17g\n", names[k], v, d[i][k], hd[k]);
      if (!close_f(f[i][k], hf[k], (float)tol) && bad_f++ < 5)
        printf("%sf(%.9g): device %.9g host %.9g\n", names[k], w, f[i][k], hf[k]);
    }
  }
  printf("double: %d mismatches\nfloat: %d mismatches\n", bad_d, bad_f);
  printf("%s\n", bad_d || bad_f ? "FAIL" : "PASS");
  return bad_d || bad_f;
}
