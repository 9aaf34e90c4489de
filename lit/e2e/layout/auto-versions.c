// -fptxcc-layout=auto where the compute constructs are in functions the data region calls
// (issue 18), the structure of most programs: the kernel of such a construct gets a layout
// version (a copy rewritten for the layout the region chose), and libptxrt launches it where
// the call passes the converted device copy, and the kernel itself everywhere else: the same
// function called outside the region, or inside it with an array the region does not convert.
// The called function's 'restrict' parameters count in auto's safety checks, but not where
// the call passes two pointers into one array (restrict allows that when both are only read).
// Every answer is checked against the same computation on the host.
// RUN: %ptxcc -fopenmp -O2 -fptxcc-layout=auto -fptxcc-info %s -o %t 2>&1 | FileCheck %s --check-prefix=INFO
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY PTXRT_DEBUG=1 %t 1000 2> %t.log | FileCheck %s
// RUN: FileCheck %s --check-prefix=LAUNCH < %t.log
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t 77 | FileCheck %s
// INFO-DAG: auto-versions.c:[[#STRUCTS:]]:1: layout: p[?] (structs) -> one array per field, p[4][?] (4 fields of 8 bytes; coalesced on the struct index: 6 of 6 accesses)
// INFO-DAG: auto-versions.c:[[#GLOBAL:]]:1: layout: v[64][48] -> [48][64] (coalesced on dimension 1
// INFO-DAG: auto-versions.c:[[#TWO:]]:1: layout: s[?] (structs) -> one array per field
// INFO-DAG: auto-versions.c:[[#TWO]]:1: layout: t[?] (structs) -> one array per field
// INFO-DAG: auto-versions.c:[[#OVERLAP:]]:1: layout: o[?] stays: safety cannot be proved (kernel '{{.*}}' also gets pointer argument {{[0-9]}}, which points into it
// CHECK: structs: ok
// CHECK: global: ok
// CHECK: two arrays: ok
// CHECK: overlapping: ok
// The versions run inside the regions, the kernels outside them and on the unconverted array.
// LAUNCH-DAG: kernel '__omp_offloading_{{.*}}_step_l[[#]]_layout1'
// LAUNCH-DAG: kernel '__omp_offloading_{{.*}}_step_l[[#]]'
// LAUNCH-DAG: kernel '__omp_offloading_{{.*}}_sweep_l[[#]]_layout1'
// LAUNCH-DAG: kernel '__omp_offloading_{{.*}}_sweep_l[[#]]'
// LAUNCH-NOT: error
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  double x, y, z, w;
} P;

void step(P *p, int n) {
#pragma omp target teams distribute parallel for map(tofrom : p[0:n])
  for (int i = 0; i < n; i++) {
    p[i].x += p[i].y;
    p[i].z += p[i].w;
  }
}

#define N 64
#define M 48
double v[N][M];

void sweep(void) {
#pragma omp target teams distribute parallel for
  for (int j = 0; j < N; j++)
    for (int i = 0; i < M; i++)
      v[j][i] += 0.5 * i;
}

void pair(P *restrict a, P *restrict b, int n) {
#pragma omp target teams distribute parallel for map(tofrom : a[0:n], b[0:n])
  for (int i = 0; i < n; i++) {
    a[i].x += b[i].y;
    b[i].z += a[i].w;
  }
}

static void sum(const P *restrict a, const P *restrict b, double *restrict out, int n) {
#pragma omp target teams distribute parallel for map(to : a[0:n], b[0:n]) map(tofrom : out[0:n])
  for (int i = 0; i < n; i++)
    out[i] += a[i].x + b[i].y;
}

static void fill(P *p, int n) {
  for (int i = 0; i < n; i++)
    p[i] = (P){i, 1, 2 * i, 2};
}

static int check(P *p, int n, double x, double z, const char *what) {
  for (int i = 0; i < n; i++)
    if (p[i].x != i + x || p[i].z != 2 * i + z) {
      printf("%s: wrong at %d: %g %g\n", what, i, p[i].x, p[i].z);
      return 0;
    }
  return 1;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000, ok = 1;
  P *p = malloc(n * sizeof *p), *q = malloc(n * sizeof *q);
  fill(p, n);
  fill(q, n);
  step(q, n); // outside the region: the kernel
#pragma omp target data map(tofrom : p[0:n])
  for (int it = 0; it < 5; it++) {
    step(p, n); // the version
    step(q, n); // q is not converted: the kernel
  }
  step(p, n);
  ok &= check(p, n, 6, 12, "structs p") && check(q, n, 6, 12, "structs q");
  printf("structs: %s\n", ok ? "ok" : "FAILED");

  for (int j = 0; j < N; j++)
    for (int i = 0; i < M; i++)
      v[j][i] = j * 100 + i;
#pragma omp target data map(tofrom : v)
  for (int it = 0; it < 4; it++)
    sweep();
  sweep();
  int gok = 1;
  for (int j = 0; j < N; j++)
    for (int i = 0; i < M; i++)
      if (v[j][i] != j * 100 + i + 5 * 0.5 * i)
        gok = 0;
  printf("global: %s\n", gok ? "ok" : "FAILED");

  P *s = malloc(n * sizeof *s), *t = malloc(n * sizeof *t);
  fill(s, n);
  fill(t, n);
#pragma omp target data map(tofrom : s[0:n], t[0:n])
  for (int it = 0; it < 3; it++)
    pair(s, t, n);
  int tok = 1;
  for (int i = 0; i < n; i++)
    if (s[i].x != i + 3 || t[i].z != 2 * i + 6)
      tok = 0;
  printf("two arrays: %s\n", tok ? "ok" : "FAILED");

  P *o = malloc((n + 5) * sizeof *o);
  double *out = calloc(n, sizeof *out);
  fill(o, n + 5);
#pragma omp target data map(to : o[0:n + 5]) map(tofrom : out[0:n])
  for (int it = 0; it < 3; it++)
    sum(o, o + 5, out, n);
  int ook = 1;
  for (int i = 0; i < n; i++)
    if (out[i] != 3 * (i + 1))
      ook = 0;
  printf("overlapping: %s\n", ook ? "ok" : "FAILED");
  return !(ok && gok && tok && ook);
}
