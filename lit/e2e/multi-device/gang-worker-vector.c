// Three levels (OpenACC gang, worker and vector loops: `distribute`, `parallel for` and a
// nested `parallel for`): the innermost region gets the arrays and the row lengths through the
// middle region, which passes its by-reference arguments on. The access ranges follow them up
// to the kernel's stores, and range both inner loops over their whole iteration spaces, so the
// loop splits over the devices by planes; every result is the serial one.
// RUN: %ptxcc -fopenacc -fptxcc-multi-device -fptxcc-info -O2 %s -o %t 2>&1 | FileCheck %s --check-prefix=INFO --implicit-check-not="whole section"
// RUN: env PTXRT_EMU_DEVICES=1 PTXSIM_DEVICES=1 %run %t | FileCheck %s
// RUN: env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 PTXRT_DEBUG=1 %run %t 2>&1 | FileCheck %s --check-prefixes=CHECK,SPLIT
// RUN: env PTXRT_EMU_DEVICES=3 PTXSIM_DEVICES=3 %run %t | FileCheck %s
// INFO: access ranges of kernel '{{.*}}smooth{{.*}}': {{.*}}(v1 = 0 .. arg{{[0-9]}} - 3, v2 = 0 .. arg{{[0-9]}} - 3)
// SPLIT: ptxrt: split {{.*}}smooth{{.*}}, 10 iterations: [0, 5) on device 0, [5, 10) on device 1
// CHECK: 0 mismatches
#include <stdio.h>
#define NI 12
#define NJ 10
#define NK 9
#define AT(x, i, j, k) x[((i) * nj + (j)) * nk + (k)]

static void smooth(int ni, int nj, int nk, const float *restrict a, float *restrict b) {
#pragma acc parallel loop gang present(a[0:ni*nj*nk], b[0:ni*nj*nk])
  for (int i = 1; i < ni - 1; i++) {
#pragma acc loop worker
    for (int j = 1; j < nj - 1; j++) {
#pragma acc loop vector
      for (int k = 1; k < nk - 1; k++)
        AT(b, i, j, k) = (AT(a, i - 1, j, k) + AT(a, i + 1, j, k) + AT(a, i, j - 1, k) +
                          AT(a, i, j + 1, k) + AT(a, i, j, k - 1) + AT(a, i, j, k + 1)) / 6.0f;
    }
  }
}

static void smooth_host(int ni, int nj, int nk, const float *a, float *b) {
  for (int i = 1; i < ni - 1; i++)
    for (int j = 1; j < nj - 1; j++)
      for (int k = 1; k < nk - 1; k++)
        AT(b, i, j, k) = (AT(a, i - 1, j, k) + AT(a, i + 1, j, k) + AT(a, i, j - 1, k) +
                          AT(a, i, j + 1, k) + AT(a, i, j, k - 1) + AT(a, i, j, k + 1)) / 6.0f;
}

int main(void) {
  static float a[NI * NJ * NK], b[NI * NJ * NK], ra[NI * NJ * NK], rb[NI * NJ * NK];
  for (int x = 0; x < NI * NJ * NK; x++)
    a[x] = b[x] = ra[x] = rb[x] = (float)((x * 5) % 23);
#pragma acc data copy(a, b)
  for (int s = 0; s < 5; s++) {
    smooth(NI, NJ, NK, a, b);
    smooth(NI, NJ, NK, b, a);
  }
  for (int s = 0; s < 5; s++) {
    smooth_host(NI, NJ, NK, ra, rb);
    smooth_host(NI, NJ, NK, rb, ra);
  }
  int bad = 0;
  for (int x = 0; x < NI * NJ * NK; x++)
    bad += a[x] != ra[x] || b[x] != rb[x];
  printf("%d mismatches\n", bad);
  return bad != 0;
}
