// C math functions with an out-pointer (frexp, modf, remquo) and integer-valued rounding (lround,
// llround, lrint and their float forms), scalbn, in a kernel: exact results, as the host's.
// Both math libraries: libdevice (the default where a CUDA installation has it) and libclc.
// RUN: %ptxcc -fopenmp -O2 %s -o %t -lm
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t | FileCheck %s
// RUN: %ptxcc -fopenmp -O2 -fptxcc-math-library=libclc %s -o %t.clc -lm
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t.clc | FileCheck %s
// CHECK: PASS
#include <math.h>
#include <stdio.h>
#define N 64

int main(void) {
  double x[N], mant[N], ip[N], rq[N], sc[N];
  int ex[N], quo[N];
  long lr[N], lri[N];
  long long llr[N], lf[N];
  for (int i = 0; i < N; i++)
    x[i] = (i - 32) * 0.75 + 0.25;
#pragma omp target teams distribute parallel for map(to : x) map(from : mant, ip, rq, sc, ex, quo, lr, lri, llr, lf)
  for (int i = 0; i < N; i++) {
    mant[i] = frexp(x[i], &ex[i]);
    double whole;
    double frac = modf(x[i], &whole);
    ip[i] = whole + frac * 1000;
    rq[i] = remquo(x[i], 1.5, &quo[i]);
    sc[i] = scalbn(x[i], 3);
    lr[i] = lround(x[i]);
    lri[i] = lrint(x[i]);
    llr[i] = llround(x[i] * 2);
    float whole_f;
    lf[i] = lroundf((float)x[i]) + (long long)(modff((float)x[i], &whole_f) * 4) + (long long)whole_f;
  }
  int bad = 0;
  for (int i = 0; i < N; i++) {
    int e, q;
    double whole, frac = modf(x[i], &whole), r = remquo(x[i], 1.5, &q);
    float whole_f, frac_f = modff((float)x[i], &whole_f);
    long long want_lf = lroundf((float)x[i]) + (long long)(frac_f * 4) + (long long)whole_f;
    if (mant[i] != frexp(x[i], &e) || ex[i] != e || ip[i] != whole + frac * 1000 || rq[i] != r || (quo[i] & 7) != (q & 7) ||
        sc[i] != x[i] * 8 || lr[i] != lround(x[i]) || lri[i] != lrint(x[i]) || llr[i] != llround(x[i] * 2) || lf[i] != want_lf) {
      printf("x=%g: %g %d %g %g %d %g %ld %ld %lld %lld\n", x[i], mant[i], ex[i], ip[i], rq[i], quo[i], sc[i], lr[i], lri[i], llr[i], lf[i]);
      bad++;
    }
  }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
