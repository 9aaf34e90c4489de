// libptxrt's layout conversion when one of the two moving dimensions is short (at most 8
// elements): the conversion kernel moves tiles of 4 x 256 (or 2 x 512, 8 x 128) elements
// through shared memory instead of 32 x 32 tiles that would leave most threads idle. Both
// directions (the short dimension the source's innermost, then the destination's), element
// sizes of 8, 4 and 1 bytes, extents that are not multiples of the tile; every element is
// compared with the serial answer. On ptxsim the kernels' names show which kernel ran: the
// 3-D arrays' long side runs on across their batch dimension i (`short_merged`), the 2-D ones
// have no batch (`short`).
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t | FileCheck %s
// RUN: %if ptxsim %{ env OMP_TARGET_OFFLOAD=MANDATORY PTXSIM_STATS=1 %t 2>&1 | FileCheck %s --check-prefix=STATS %}
// CHECK: d: ok
// CHECK: f: ok
// CHECK: c: ok
// CHECK: PASS
// STATS-DAG: ptxrt_layout_short_merged_u64
// STATS-DAG: ptxrt_layout_short_merged_u32
// STATS-DAG: ptxrt_layout_short_merged_u8
// STATS-DAG: ptxrt_layout_short_u64
// STATS-DAG: ptxrt_layout_short_u32
// STATS-DAG: ptxrt_layout_short_u8
#include <stdio.h>

#define I 5
#define K 301
static double d[I][K][3];
static float f[I][K][4];
static char c[I][K][2];
static double d2[K][3];
static float f2[K][4];
static char c2[K][2];

int main(void) {
  for (int i = 0; i < I; i++)
    for (int k = 0; k < K; k++) {
      for (int m = 0; m < 3; m++)
        d[i][k][m] = i * 10000 + k * 10 + m;
      for (int m = 0; m < 4; m++)
        f[i][k][m] = i * 10000 + k * 10 + m;
      for (int m = 0; m < 2; m++)
        c[i][k][m] = (char)(i + k + m);
    }
  for (int k = 0; k < K; k++) {
    for (int m = 0; m < 3; m++)
      d2[k][m] = k * 10 + m;
    for (int m = 0; m < 4; m++)
      f2[k][m] = k * 10 + m;
    for (int m = 0; m < 2; m++)
      c2[k][m] = (char)(k + m);
  }
  // The device holds d[I][3][K], f[I][4][K], c[I][2][K]: the short dimension moves out.
#pragma ptxcc trans transpose(d[0:I][0:K][0:3], [1,3,2])
#pragma ptxcc trans transpose(f[0:I][0:K][0:4], [1,3,2])
#pragma ptxcc trans transpose(c[0:I][0:K][0:2], [1,3,2])
  {
#pragma omp target teams distribute parallel for collapse(2) map(tofrom : d, f, c)
    for (int i = 0; i < I; i++)
      for (int k = 0; k < K; k++) {
        d[i][k][1] += 0.5;
        f[i][k][3] *= 2;
        c[i][k][0] += 1;
      }
  }
#pragma ptxcc trans transpose(d2[0:K][0:3], [2,1])
#pragma ptxcc trans transpose(f2[0:K][0:4], [2,1])
#pragma ptxcc trans transpose(c2[0:K][0:2], [2,1])
  {
#pragma omp target teams distribute parallel for map(tofrom : d2, f2, c2)
    for (int k = 0; k < K; k++) {
      d2[k][1] += 0.5;
      f2[k][3] *= 2;
      c2[k][0] += 1;
    }
  }
  int bd = 0, bf = 0, bc = 0;
  for (int i = 0; i < I; i++)
    for (int k = 0; k < K; k++) {
      for (int m = 0; m < 3; m++)
        bd += d[i][k][m] != i * 10000 + k * 10 + m + (m == 1 ? 0.5 : 0);
      for (int m = 0; m < 4; m++)
        bf += f[i][k][m] != (float)(i * 10000 + k * 10 + m) * (m == 3 ? 2 : 1);
      for (int m = 0; m < 2; m++)
        bc += c[i][k][m] != (char)(i + k + m + (m == 0));
    }
  for (int k = 0; k < K; k++) {
    for (int m = 0; m < 3; m++)
      bd += d2[k][m] != k * 10 + m + (m == 1 ? 0.5 : 0);
    for (int m = 0; m < 4; m++)
      bf += f2[k][m] != (float)(k * 10 + m) * (m == 3 ? 2 : 1);
    for (int m = 0; m < 2; m++)
      bc += c2[k][m] != (char)(k + m + (m == 0));
  }
  printf("d: %s\nf: %s\nc: %s\n", bd ? "WRONG" : "ok", bf ? "WRONG" : "ok", bc ? "WRONG" : "ok");
  printf("%s\n", bd || bf || bc ? "FAIL" : "PASS");
  return bd || bf || bc;
}
