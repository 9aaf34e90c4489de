// A trans whose device layout puts a short dimension innermost: a[4][N][M] of floats lives
// as [N][M][4], and each thread reads its four values as one 16-byte vector load, which the
// rewrite allows by assuming the device copy starts on a 16-byte boundary
// (passes/src/layout/align.rs). The assumption travels in the description (`@16`) and
// libptxrt checks it at each launch: the same kernel over a copy that a data clause put 4
// bytes past a boundary (q = buf + 1, mapped as buf[1:…]) stops with an error naming the array
// instead of a misaligned vector access. Emulator and ptxsim.
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t | FileCheck %s
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY not %t 1 2>&1 | FileCheck %s --check-prefix=MISALIGNED
// RUN: %ptxcc -fopenmp -O2 %s --emit=ptx -o - | FileCheck %s --check-prefix=PTX
// RUN: %ptxcc -fopenmp -O2 %s --emit=host-ir -o - | FileCheck %s --check-prefix=HOST
// CHECK: aligned: ok
// CHECK: PASS
// MISALIGNED: kernel '{{.*}}' ({{.*}}vector-start.c:{{[0-9]+}}:{{[0-9]+}}) reads the device copy of 'q' (laid out by the trans at {{.*}}vector-start.c:{{[0-9]+}}:{{[0-9]+}}) in 16-byte vectors, but the copy starts 4 bytes past a 16-byte boundary
// MISALIGNED-SAME: _Alignas(16)
// MISALIGNED-NOT: PASS
// PTX: ld.global.v4.f32
// The descriptions the runtime gets: both assume 16 bytes.
// HOST-DAG: c"a;4,12,40;3,1,2@16;{{.*}}vector-start.c:{{[0-9]+}}:{{[0-9]+}}\00"
// HOST-DAG: c"q;4,12,40;3,1,2@16;{{.*}}vector-start.c:{{[0-9]+}}:{{[0-9]+}}\00"
#include <stdio.h>
#include <stdlib.h>

#define N 12
#define M 40
static float a[4][N][M], out[N][M];
static float buf[1 + 4 * N * M];

static int check(const char *what, float (*x)[N][M]) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++) {
      float want = x[0][i][j] + 2 * x[1][i][j] + 3 * x[2][i][j] + 4 * x[3][i][j];
      if (out[i][j] != want) {
        printf("%s: out[%d][%d] = %g, want %g\n", what, i, j, out[i][j], want);
        return 1;
      }
    }
  printf("%s: ok\n", what);
  return 0;
}

int main(int argc, char **argv) {
  for (int c = 0; c < 4; c++)
    for (int i = 0; i < N; i++)
      for (int j = 0; j < M; j++)
        a[c][i][j] = buf[1 + (c * N + i) * M + j] = (float)(c * 1000 + i * 50 + j);
  if (argc < 2) {
#pragma ptxcc trans transpose(a[0:4][0:N][0:M], [3,1,2])
    {
#pragma omp target teams distribute parallel for collapse(2) map(to : a) map(from : out)
      for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++)
          out[i][j] = a[0][i][j] + 2 * a[1][i][j] + 3 * a[2][i][j] + 4 * a[3][i][j];
    }
    if (check("aligned", a))
      return 1;
  } else {
    float(*q)[N][M] = (float(*)[N][M])(buf + 1);
#pragma ptxcc trans transpose(q[0:4][0:N][0:M], [3,1,2])
    {
#pragma omp target teams distribute parallel for collapse(2) map(to : buf[1:4 * N * M]) map(from : out)
      for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++)
          out[i][j] = q[0][i][j] + 2 * q[1][i][j] + 3 * q[2][i][j] + 4 * q[3][i][j];
    }
    if (check("misaligned", q))
      return 1;
  }
  printf("PASS\n");
  return 0;
}
