// private/firstprivate of a pointer's array section (OpenACC 3.3, 2.5.13-2.5.14, 2.9.10): one
// copy per gang on the construct, on a gang loop and on a sequential loop in a gang; one per
// thread on worker and vector loops; firstprivate copies start as the host's data; serial;
// num_gangs; async; if(0); a nonzero lower bound; collapse. The host's data never changes.
// Each answer is compared with the serial one.
// REQUIRES: libptxrt
// RUN: %ptxcc -fopenacc %s -o %t && %run %t | FileCheck %s
// CHECK: PASS
#include <stdio.h>
#include <stdlib.h>
#define N 300
#define M 40
static int bad;
static void expect(const char *what, int i, double got, double want) {
  if (got != want && bad++ < 10) printf("%s [%d]: %g, want %g\n", what, i, got, want);
}
int main(void) {
  double *c = malloc(M * sizeof(double)), *w = malloc(2 * M * sizeof(double));
  double *r = malloc(N * sizeof(double)), *a = malloc(N * M * sizeof(double));
  for (int j = 0; j < M; j++) c[j] = -1;
  for (int j = 0; j < 2 * M; j++) w[j] = j;
  for (int k = 0; k < N * M; k++) a[k] = k % 13;
  int m = M;

  // A gang's copy, filled by its vector loop and read by a sequential loop: every lane of the
  // gang sees the same copy.
  #pragma acc parallel loop gang private(c[0:m]) copyin(a[0:N*M]) copyout(r[0:N])
  for (int i = 0; i < N; i++) {
    #pragma acc loop vector
    for (int j = 0; j < m; j++) c[j] = a[i * M + j] * 2;
    double s = 0;
    #pragma acc loop seq
    for (int j = 0; j < m; j++) s += c[(j + 7) % m] * j;
    r[i] = s;
  }
  for (int i = 0; i < N; i++) {
    double s = 0;
    for (int j = 0; j < M; j++) s += a[i * M + (j + 7) % M] * 2 * j;
    expect("gang loop", i, r[i], s);
  }

  // A thread's copy on a vector loop (the combined loop is gang vector), lower bound 10.
  #pragma acc parallel loop private(c[10:m-10]) copyin(a[0:N*M]) copyout(r[0:N])
  for (int i = 0; i < N; i++) {
    for (int j = 10; j < m; j++) c[j] = a[i * M + j] + i;
    double s = 0;
    for (int j = m - 1; j >= 10; j--) s = s * 0.5 + c[j];
    r[i] = s;
  }
  for (int i = 0; i < N; i++) {
    double s = 0;
    for (int j = M - 1; j >= 10; j--) s = s * 0.5 + (a[i * M + j] + i);
    expect("vector loop", i, r[i], s);
  }

  // firstprivate on the construct: each gang starts with the host's w and changes its copy;
  // a gang loop inside with num_gangs.
  #pragma acc parallel num_gangs(7) firstprivate(w[0:2*M]) copyout(r[0:N])
  {
    #pragma acc loop gang
    for (int i = 0; i < N; i++) r[i] = w[i % (2 * M)] + i;
    w[0] = -100; // this gang's copy only
  }
  for (int i = 0; i < N; i++) expect("firstprivate", i, r[i], i % (2 * M) + i);
  for (int j = 0; j < 2 * M; j++) expect("host w", j, w[j], j);

  // A worker loop's private section inside a gang loop, per thread.
  #pragma acc parallel num_gangs(5) num_workers(4) copyin(a[0:N*M]) copyout(r[0:N])
  {
    #pragma acc loop gang worker private(c[0:M])
    for (int i = 0; i < N; i++) {
      for (int j = 0; j < M; j++) c[j] = a[i * M + j];
      double s = 0;
      for (int j = 0; j < M; j++) s += c[M - 1 - j] * j;
      r[i] = s;
    }
  }
  for (int i = 0; i < N; i++) {
    double s = 0;
    for (int j = 0; j < M; j++) s += a[i * M + M - 1 - j] * j;
    expect("worker loop", i, r[i], s);
  }

  // serial, async, if(0), collapse.
  #pragma acc serial firstprivate(w[0:2*M]) copyout(r[0:1])
  {
    double s = 0;
    for (int j = 0; j < 2 * M; j++) { w[j] *= 3; s += w[j]; }
    r[0] = s;
  }
  expect("serial", 0, r[0], 3.0 * (2 * M) * (2 * M - 1) / 2);
  #pragma acc parallel loop gang private(c[0:M]) copyin(a[0:N*M]) copyout(r[0:N]) async(2)
  for (int i = 0; i < N; i++) {
    #pragma acc loop vector
    for (int j = 0; j < M; j++) c[j] = a[i * M + j] + 1;
    double s = 0;
    #pragma acc loop seq
    for (int j = 0; j < M; j++) s += c[j];
    r[i] = s;
  }
  #pragma acc wait(2)
  for (int i = 0; i < N; i++) {
    double s = 0;
    for (int j = 0; j < M; j++) s += a[i * M + j] + 1;
    expect("async", i, r[i], s);
  }
  int on = 0;
  #pragma acc parallel loop gang private(c[0:M]) copyout(r[0:N]) if(on)
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < M; j++) c[j] = i;
    r[i] = c[M - 1] + c[0];
  }
  for (int i = 0; i < N; i++) expect("if(0)", i, r[i], 2 * i);
  #pragma acc parallel loop gang collapse(2) private(c[0:2]) copyout(a[0:N*M])
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++) {
      c[0] = i;
      c[1] = j;
      a[i * M + j] = c[0] * 1000 + c[1];
    }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++) expect("collapse", i * M + j, a[i * M + j], i * 1000 + j);

  for (int j = 0; j < M; j++) expect("host c", j, c[j], -1);
  printf(bad ? "FAIL\n" : "PASS\n");
  return bad != 0;
}
