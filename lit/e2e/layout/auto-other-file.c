// -fptxcc-layout=auto when the data region calls code of another file (issue 18): that file's
// kernels were compiled without this region's layouts, so an array the region passes to a
// function of another file (or a global other files can name, when the region calls one)
// keeps its layout, and -fptxcc-info says why; a static global the other file cannot name
// still converts. This file is compiled twice: with -DOTHER it is the other file.
// RUN: %ptxcc -fopenmp -O2 -fptxcc-layout=auto -DOTHER -c %s -o %t.other.o
// RUN: %ptxcc -fopenmp -O2 -fptxcc-layout=auto -fptxcc-info %s %t.other.o -o %t 2>&1 | FileCheck %s --check-prefix=INFO
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %run %t | FileCheck %s
// INFO-DAG: auto-other-file.c:[[#PASSED:]]:1: layout: p[?] stays: safety cannot be proved (the region passes it, or a pointer that may point into it, to 'other_step', a function of another file, whose kernels were not compiled for its layout)
// INFO-DAG: auto-other-file.c:[[#NAMED:]]:1: layout: g[64][48] stays: safety cannot be proved (the region calls 'other_tick', a function of another file, which may find it ('g' is a global other files can name) and launch kernels not compiled for its layout)
// INFO-DAG: auto-other-file.c:[[#STATIC:]]:1: layout: s[64][48] -> [48][64]
// CHECK: passed: ok
// CHECK: named: ok
// CHECK: static: ok
#include <stdio.h>
#include <stdlib.h>
#define N 64
#define M 48
typedef struct {
  double x, y, z, w;
} P;
extern double g[N][M];

#ifdef OTHER
double g[N][M];
void other_step(P *p, int n) {
#pragma omp target teams distribute parallel for map(tofrom : p[0:n])
  for (int i = 0; i < n; i++)
    p[i].z += p[i].w;
}
void other_tick(void) {
#pragma omp target teams distribute parallel for map(tofrom : g)
  for (int j = 0; j < N; j++)
    g[j][0] += 1.0;
}
#else
void other_step(P *p, int n);
void other_tick(void);
static double s[N][M];

int main(void) {
  int n = 1000, ok = 1;
  P *p = malloc(n * sizeof *p);
  for (int i = 0; i < n; i++)
    p[i] = (P){i, 1, 2 * i, 2};
#pragma omp target data map(tofrom : p[0:n])
  for (int it = 0; it < 5; it++) {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++)
      p[i].x += p[i].y;
    other_step(p, n);
  }
  for (int i = 0; i < n; i++)
    if (p[i].x != i + 5 || p[i].z != 2 * i + 10)
      ok = 0;
  printf("passed: %s\n", ok ? "ok" : "FAILED");

  int gok = 1;
#pragma omp target data map(tofrom : g)
  for (int it = 0; it < 4; it++) {
#pragma omp target teams distribute parallel for
    for (int j = 0; j < N; j++)
      for (int i = 0; i < M; i++)
        g[j][i] += i;
    other_tick();
  }
  for (int j = 0; j < N; j++)
    for (int i = 0; i < M; i++)
      if (g[j][i] != 4 * i + (i == 0 ? 4 : 0))
        gok = 0;
  printf("named: %s\n", gok ? "ok" : "FAILED");

  int sok = 1;
#pragma omp target data map(tofrom : s)
  for (int it = 0; it < 4; it++) {
#pragma omp target teams distribute parallel for
    for (int j = 0; j < N; j++)
      for (int i = 0; i < M; i++)
        s[j][i] += i;
    other_tick();
  }
  for (int j = 0; j < N; j++)
    for (int i = 0; i < M; i++)
      if (s[j][i] != 4 * i)
        sok = 0;
  printf("static: %s\n", sok ? "ok" : "FAILED");
  return !(ok && gok && sok);
}
#endif
