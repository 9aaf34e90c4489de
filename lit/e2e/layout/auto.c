// -fptxcc-layout=auto (issue 18): the compiler picks each array's device layout from its
// kernels' subscripts against the thread index. Himeno's coefficients a[I][J][K][4], here in
// double (lanes move along k; each thread's 32 bytes are more than one vector load) become
// a[I][J][4][K], as the paper's hand-written trans does (in float, 16 bytes a thread, they stay:
// one ld.v4 per thread is coalesced already, lit/passes/layout/auto-vector-coalesced.ll); p, already
// coalesced, stays; t, read along k in one kernel and along i in another, stays (the
// accesses disagree); v, written along i only, becomes v[J][K][I]. The kernels run in a loop
// inside the data region, as a solver's do: the conversions at its start and end are paid
// once for all the trips (a region whose kernels run once keeps every layout:
// lit/e2e/layout/auto-once.c). Auto is the default at -O2 and above; -fptxcc-layout=none, -O1
// and -fptxcc-multi-device leave every layout as written. Every answer is compared with the
// serial computation.
// RUN: %ptxcc -fopenmp -O2 -fptxcc-layout=auto -fptxcc-info %s -o %t 2>&1 | FileCheck %s --check-prefix=INFO
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t | FileCheck %s
// RUN: %ptxcc -fopenmp -O2 -fptxcc-layout=none -fptxcc-info %s -o %t.off 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t.off | FileCheck %s
// The default: auto from -O2 on, on one device.
// RUN: %ptxcc -fopenmp -O3 -fptxcc-info -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=INFO
// RUN: %ptxcc -fopenmp -O1 -fptxcc-info -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: %ptxcc -fopenmp -O2 -fptxcc-multi-device -fptxcc-info -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFF
// INFO-DAG: auto.c:[[#L:]]:{{[0-9]+}}: layout: a[17][9][33][4] -> [17][9][4][33] (coalesced on dimension 3: 4 of 4 accesses)
// INFO-DAG: auto.c:[[#L]]:{{[0-9]+}}: trans: 'a' is a[17][9][4][33] on the device; 4 accesses in 1 kernel rewritten
// INFO-DAG: auto.c:[[#L]]:{{[0-9]+}}: layout: p[17][9][33] stays: already coalesced
// INFO-DAG: auto.c:[[#L]]:{{[0-9]+}}: layout: t[17][9][33] stays: its accesses disagree (consecutive threads move along dimension 3 in only 1 of 2)
// INFO-DAG: auto.c:[[#L]]:{{[0-9]+}}: layout: v[17][9][33] -> [9][33][17] (coalesced on dimension 1: 1 of 1 accesses)
// OFF-NOT: layout:
// CHECK: himeno: ok
// CHECK: PASS
#include <math.h>
#include <stdio.h>

#define I 17
#define J 9
#define K 33
static double a[I][J][K][4];
static float p[I][J][K], q[I][J][K], t[I][J][K], u[I][J][K], v[I][J][K];

static float step(int i, int j, int k) {
  return a[i][j][k][0] * p[i + 1][j][k] + a[i][j][k][1] * p[i][j + 1][k] + a[i][j][k][2] * p[i][j][k + 1] +
         a[i][j][k][3] * p[i][j][k];
}

int main(int argc, char **argv) {
  (void)argv;
  int iters = 2 + (argc > 8); // not a constant: the loop stays a loop
  for (int i = 0; i < I; i++)
    for (int j = 0; j < J; j++)
      for (int k = 0; k < K; k++) {
        for (int c = 0; c < 4; c++)
          a[i][j][k][c] = 1.0 + 0.01 * k - 0.02 * j + 0.001 * i + 0.25 * c;
        p[i][j][k] = (float)(i * i) / (I * I) + 0.01f * k;
        t[i][j][k] = i + j * 0.5f + k * 0.25f;
      }
#pragma omp target data map(to : a, p, t) map(from : q, u, v)
  for (int it = 0; it < iters; it++) {
#pragma omp target teams distribute parallel for collapse(3)
    for (int i = 1; i < I - 1; i++)
      for (int j = 1; j < J - 1; j++)
        for (int k = 1; k < K - 1; k++)
          q[i][j][k] = a[i][j][k][0] * p[i + 1][j][k] + a[i][j][k][1] * p[i][j + 1][k] +
                       a[i][j][k][2] * p[i][j][k + 1] + a[i][j][k][3] * p[i][j][k];
#pragma omp target teams distribute parallel for collapse(2)
    for (int j = 0; j < J; j++)
      for (int k = 0; k < K; k++)
        u[0][j][k] = t[0][j][k] * 2;
#pragma omp target teams distribute parallel for collapse(2)
    for (int j = 0; j < J; j++)
      for (int i = 0; i < I; i++)
        v[i][j][0] = t[i][j][0] + 1;
  }
  int bad = 0;
  for (int i = 1; i < I - 1; i++)
    for (int j = 1; j < J - 1; j++)
      for (int k = 1; k < K - 1; k++)
        bad += fabsf(q[i][j][k] - step(i, j, k)) > 1e-5f * fabsf(step(i, j, k));
  for (int j = 0; j < J; j++)
    for (int k = 0; k < K; k++)
      bad += u[0][j][k] != t[0][j][k] * 2;
  for (int j = 0; j < J; j++)
    for (int i = 0; i < I; i++)
      bad += v[i][j][0] != t[i][j][0] + 1;
  printf("himeno: %s\n", bad ? "WRONG" : "ok");
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
