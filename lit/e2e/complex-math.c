// <complex.h> functions in a kernel, double and float: cabs carg cexp clog csqrt cpow csin ccos ctan
// csinh ccosh ctanh, compared with the host's libm within a relative tolerance (the device uses the
// textbook formulas), over points in all four quadrants and on the axes.
// RUN: %ptxcc -fopenmp -O2 %s -o %t -lm
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t | FileCheck %s
// CHECK: double: 0 mismatches
// CHECK: float: 0 mismatches
// CHECK: PASS
#include <complex.h>
#include <math.h>
#include <stdio.h>

#define N 40
#define NF 12

static int close_c(double complex a, double complex b, double tol) {
  double scale = fmax(1.0, cabs(b));
  return cabs(a - b) <= tol * scale;
}

int main(void) {
  double complex z[N], d[N][NF];
  float complex zf[N], f[N][NF];
  for (int i = 0; i < N; i++) {
    double re = (i % 8) * 0.5 - 1.75, im = (i / 8) * 0.6 - 1.2;
    if (i == 3)
      im = 0; /* on the real axis */
    if (i == 12)
      re = 0; /* on the imaginary axis */
    z[i] = re + I * im;
    zf[i] = (float)re + I * (float)im;
  }
#pragma omp target teams distribute parallel for map(to : z, zf) map(from : d, f)
  for (int i = 0; i < N; i++) {
    double complex v = z[i], w = 0.5 - 0.25 * I;
    d[i][0] = cabs(v);
    d[i][1] = carg(v);
    d[i][2] = cexp(v);
    d[i][3] = clog(v);
    d[i][4] = csqrt(v);
    d[i][5] = cpow(v, w);
    d[i][6] = csin(v);
    d[i][7] = ccos(v);
    d[i][8] = ctan(v);
    d[i][9] = csinh(v);
    d[i][10] = ccosh(v);
    d[i][11] = ctanh(v);
    float complex u = zf[i], wf = 0.5f - 0.25f * I;
    f[i][0] = cabsf(u);
    f[i][1] = cargf(u);
    f[i][2] = cexpf(u);
    f[i][3] = clogf(u);
    f[i][4] = csqrtf(u);
    f[i][5] = cpowf(u, wf);
    f[i][6] = csinf(u);
    f[i][7] = ccosf(u);
    f[i][8] = ctanf(u);
    f[i][9] = csinhf(u);
    f[i][10] = ccoshf(u);
    f[i][11] = ctanhf(u);
  }
  static const char *names[NF] = {"cabs", "carg", "cexp", "clog", "csqrt", "cpow", "csin", "ccos", "ctan", "csinh", "ccosh", "ctanh"};
  int bad_d = 0, bad_f = 0;
  for (int i = 0; i < N; i++) {
    double complex v = z[i], w = 0.5 - 0.25 * I;
    double complex want[NF] = {cabs(v), carg(v), cexp(v), clog(v), csqrt(v), cpow(v, w), csin(v), ccos(v), ctan(v), csinh(v), ccosh(v), ctanh(v)};
    float complex u = zf[i], wf = 0.5f - 0.25f * I;
    float complex wantf[NF] = {cabsf(u), cargf(u), cexpf(u), clogf(u), csqrtf(u), cpowf(u, wf), csinf(u), ccosf(u), ctanf(u), csinhf(u), ccoshf(u), ctanhf(u)};
    for (int k = 0; k < NF; k++) {
      if (!close_c(d[i][k], want[k], 1e-12)) {
        bad_d++;
        printf("%s(%g%+gi) = %g%+gi, want %g%+gi\n", names[k], creal(v), cimag(v), creal(d[i][k]), cimag(d[i][k]), creal(want[k]), cimag(want[k]));
      }
      if (!close_c(f[i][k], wantf[k], 1e-5)) {
        bad_f++;
        printf("%sf(%g%+gi) = %g%+gi, want %g%+gi\n", names[k], crealf(u), cimagf(u), crealf(f[i][k]), cimagf(f[i][k]), crealf(wantf[k]), cimagf(wantf[k]));
      }
    }
  }
  printf("double: %d mismatches\nfloat: %d mismatches\n", bad_d, bad_f);
  printf("%s\n", bad_d || bad_f ? "FAIL" : "PASS");
  return bad_d || bad_f;
}
