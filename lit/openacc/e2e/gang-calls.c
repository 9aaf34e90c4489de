// Calls of routine seq functions that write memory in gang-redundant code (the body of a gang
// loop around vector loops, the top of a parallel region): thread 0 of each gang makes them,
// and a result or a local they fill reaches the gang's other threads; also in a loop, where
// the next call must wait until every thread has read the last one's result.
// REQUIRES: libptxrt
// RUN: %ptxcc -fopenacc -O2 %s -o %t -fptxcc-info 2>&1 | FileCheck %s --check-prefix=INFO
// RUN: %run %t | FileCheck %s
// CHECK: PASS
// INFO: gang-calls.c:[[@LINE+18]]:{{[0-9]+}}: call to 'claim' of the teams code made by thread 0 of each block, followed by a barrier
#include <stdio.h>
#include <stdlib.h>
#define N 64
#define M 300

#pragma acc routine seq
static int claim(int *counter, int i) { int v = *counter; *counter = v + 1; return v * 1000 + i; }
#pragma acc routine seq
static void fill(double *r, int m, double v) { for (int j = 0; j < m; j++) r[j] = v; }
#pragma acc routine seq
static void pair(int i, int k, double out[2]) { out[0] = i * 10 + k; out[1] = -k; }

int main(void) {
  double *a = malloc(N * M * sizeof(double)), *b = malloc(N * M * sizeof(double));
  int *ids = malloc(N * sizeof(int)), *counters = calloc(N, sizeof(int)), bad = 0;
  #pragma acc parallel loop gang vector_length(128) copyout(a[0:N*M], b[0:N*M], ids[0:N]) copy(counters[0:N])
  for (int i = 0; i < N; i++) {
    int id = claim(&counters[i], i);
    fill(&a[i * M], M, -1);
    #pragma acc loop vector
    for (int j = 0; j < M; j += 2) a[i * M + j] = id + j;
    ids[i] = id;
    for (int k = 0; k < 4; k++) {
      double p[2];
      pair(i, k, p);
      #pragma acc loop vector
      for (int j = k; j < M; j += 4) b[i * M + j] = p[0] + p[1] * j;
    }
  }
  for (int i = 0; i < N; i++) {
    if (ids[i] != i || counters[i] != 1) bad |= 1;
    for (int j = 0; j < M; j++) {
      if (a[i * M + j] != (j % 2 ? -1 : i + j)) bad |= 2;
      int k = j % 4;
      if (b[i * M + j] != i * 10 + k - (double)k * j) bad |= 4;
    }
  }
  int total = 0;
  #pragma acc parallel num_gangs(1) vector_length(64) copy(counters[0:N], total)
  {
    int first = claim(&counters[0], 0);
    #pragma acc loop gang vector reduction(+:total)
    for (int i = 0; i < N; i++) total += first + i;
  }
  if (counters[0] != 2 || total != 1000 * N + N * (N - 1) / 2) bad |= 8;
  printf("%s %d\n", bad ? "FAIL" : "PASS", bad);
  return bad;
}
