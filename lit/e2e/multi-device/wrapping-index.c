// An index that wraps in its narrow type on purpose: ((int)((unsigned)i << 16) >> 16) is i's low
// 16 bits sign-extended, i for i < 32768 and i - 65536 above. The access ranges read it as i,
// with a guard that it stays in the 16-bit range; the runtime checks the guard for each part.
// Split over 2 devices, device 0's part [0, 32768) keeps the guard and moves its half; device
// 1's part [32768, 65536) breaks it, and its accesses are whole sections (PTXRT_DEBUG says so).
// Read as plain i, device 1 would have fetched src[65536, 98304), past the section, and
// computed from bytes it never received: the answer is the serial one on 1..3 devices.
// RUN: %ptxcc -fopenmp -fptxcc-multi-device -fptxcc-info -O2 %s -o %t 2>&1 | FileCheck %s --check-prefix=INFO
// RUN: env PTXRT_EMU_DEVICES=1 PTXSIM_DEVICES=1 %run %t | FileCheck %s
// RUN: env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 PTXRT_DEBUG=1 %run %t 2>&1 | FileCheck %s --check-prefixes=CHECK,DEBUG
// RUN: env PTXRT_EMU_DEVICES=3 PTXSIM_DEVICES=3 %run %t | FileCheck %s
// INFO: access ranges of kernel '{{.*}}permute{{.*}}': argument {{[0-9]}}: read [4*i + 131072, 4*i + 131076); argument {{[0-9]}}: written [4*i, 4*i + 4); 1 narrow integer value checked at run time
// DEBUG-NOT: iterations [0, 32768): an int value
// DEBUG: ptxrt: split {{.*}}: kernel '{{.*}}permute{{.*}}', iterations [32768, 65536): an int value of its subscripts may leave its range there: its accesses are whole sections
// CHECK: 0 mismatches
#include <stdio.h>
#define N 65536

static void permute(float *dst, const float *src) {
#pragma omp target teams distribute parallel for map(to : src[0:N]) map(from : dst[0:N])
  for (int i = 0; i < N; i++)
    dst[i] = src[((int)((unsigned)i << 16) >> 16) + 32768];
}

int main(void) {
  static float src[N], dst[N];
  for (int i = 0; i < N; i++)
    src[i] = (float)(i % 1000);
  permute(dst, src);
  int bad = 0;
  for (int i = 0; i < N; i++)
    bad += dst[i] != src[(i + 32768) % N];
  printf("%d mismatches\n", bad);
  return bad != 0;
}
