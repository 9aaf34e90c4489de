// -fptxcc-layout=auto on globals of constant shape whose kernels also get another pointer
// (issue 18). The converted device copy of a global is reached only through the global's own
// name; a pointer into it that a kernel gets as another parameter would read the converted
// bytes in the host's layout (libptxrt stops such a launch). So auto keeps the global's layout
// when a kernel of the region gets a pointer that points, or may point, into it, or a data
// clause of the region attaches one (a struct member pointer mapped as s.p[0:n]), and says
// why; a pointer proved to point elsewhere (a local array) does not stop it. Every answer is
// checked against the same computation on the host.
// RUN: %ptxcc -fopenmp -O2 -fptxcc-layout=auto -fptxcc-info %s -o %t 2>&1 | FileCheck %s --check-prefix=INFO
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t 1 | FileCheck %s
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t 5 | FileCheck %s
// INFO-DAG: auto-global-alias.c:[[#INTO:]]:1: layout: v[64][48] stays: safety cannot be proved (kernel '{{.*}}' also gets pointer argument {{[0-9]}}, which points into it; the kernels must reach the converted copy through the array's own name)
// INFO-DAG: auto-global-alias.c:[[#MAY:]]:1: layout: u[64][48] stays: safety cannot be proved (kernel '{{.*}}' also gets pointer argument {{[0-9]}}, which may point into the same memory; the kernels must reach the converted copy through the array's own name)
// INFO-DAG: auto-global-alias.c:[[#ATTACHED:]]:1: layout: x[64][48] stays: safety cannot be proved (the data clause 's.p[0:s.n]' attaches a pointer that may point into it, which the kernels would follow into the converted copy and read in the host's layout; the kernels must reach the converted copy through the array's own name)
// INFO-DAG: auto-global-alias.c:[[#APART:]]:1: layout: w[64][48] -> [48][64] (coalesced on dimension 1
// CHECK: points into: ok
// CHECK: may point: ok
// CHECK: attached: ok
// CHECK: apart: ok
#include <stdio.h>
#include <stdlib.h>
#define N 64
#define M 48
double v[N][M], u[N][M], w[N][M], x[N][M];
struct S {
  double *p;
  int n;
};
static double hv[N][M];

static void fill(double a[N][M]) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      a[i][j] = i * 100 + j;
}

static int same(double a[N][M], const char *what) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      if (a[i][j] != hv[i][j]) {
        printf("%s: wrong at [%d][%d]: %g, expected %g\n", what, i, j, a[i][j], hv[i][j]);
        return 0;
      }
  printf("%s: ok\n", what);
  return 1;
}

// The reference: three sweeps of "column += 1", then "row r += 1" over n elements.
static void reference(int r, int n) {
  fill(hv);
  for (int it = 0; it < 3; it++) {
    for (int i = 0; i < N; i++)
      for (int j = 0; j < M; j++)
        hv[i][j] += 1.0;
    for (int k = 0; k < n; k++)
      hv[r][k] += 1.0;
  }
}

// q may point anywhere: into u, as main passes it.
__attribute__((noinline)) static void may_point(double *q, int n) {
  fill(u);
#pragma omp target data map(tofrom : u)
  for (int it = 0; it < 3; it++) {
#pragma omp target teams distribute parallel for map(tofrom : q[0:n])
    for (int j = 0; j < N; j++) {
      for (int i = 0; i < M; i++)
        u[j][i] += 1.0;
      if (j == 0)
        for (int k = 0; k < n; k++)
          q[k] += 1.0;
    }
  }
}

int main(int argc, char **argv) {
  int r = argc > 1 ? atoi(argv[1]) : 1, n = 10;
  reference(r, n);
  int ok = 1;

  // A local pointer into v, computed at run time, mapped by a construct of v's region.
  fill(v);
  double *p = &v[r][0];
#pragma omp target data map(tofrom : v)
  for (int it = 0; it < 3; it++) {
#pragma omp target teams distribute parallel for
    for (int j = 0; j < N; j++)
      for (int i = 0; i < M; i++)
        v[j][i] += 1.0;
#pragma omp target teams distribute parallel for map(tofrom : p[0:n])
    for (int k = 0; k < n; k++)
      p[k] += 1.0;
  }
  ok &= same(v, "points into");

  may_point(&u[r][0], n);
  ok &= same(u, "may point");

  // A struct member pointing into x, attached to its struct's device copy.
  fill(x);
  struct S s = {&x[r][0], n};
#pragma omp target data map(tofrom : x)
  for (int it = 0; it < 3; it++) {
#pragma omp target teams distribute parallel for
    for (int j = 0; j < N; j++)
      for (int i = 0; i < M; i++)
        x[j][i] += 1.0;
#pragma omp target teams distribute parallel for map(to : s) map(tofrom : s.p[0:s.n])
    for (int k = 0; k < 10; k++)
      s.p[k] += 1.0;
  }
  ok &= same(x, "attached");

  // The other pointer is a local array: w converts.
  fill(w);
  double t[16] = {0};
#pragma omp target data map(tofrom : w, t)
  for (int it = 0; it < 3; it++) {
#pragma omp target teams distribute parallel for
    for (int j = 0; j < N; j++) {
      for (int i = 0; i < M; i++)
        w[j][i] += 1.0;
      if (j == 0)
        t[0] += 1.0;
    }
#pragma omp target teams distribute parallel for
    for (int k = 0; k < n; k++)
      w[r][k] += 1.0;
  }
  ok &= same(w, "apart") && t[0] == 3.0;
  return !ok;
}
