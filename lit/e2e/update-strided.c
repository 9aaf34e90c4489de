// target update to/from of strided and multi-dimensional array sections (OpenMP 5.0 2.12.6,
// 5.2 5.8.1: a section's stride): only every stride-th element moves, in every dimension. clang 19
// drops a stride in the first non-whole dimension and copies a contiguous block instead; ptxcc
// performs these items itself. Each check compares with what the host expects element by element.
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: %run %t | FileCheck %s
// CHECK: 1-D from: ok
// CHECK: 1-D to: ok
// CHECK: omitted length: ok
// CHECK: pointer: ok
// CHECK: 2-D outer stride: ok
// CHECK: 2-D inner stride: ok
// CHECK: 2-D block: ok
// CHECK: member: ok
// CHECK: if(0): ok
// CHECK: depend nowait device: ok
// CHECK: PASS
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define N 16
#define R 6
#define C 7

static int failures;
static void check(const char *what, int ok) {
  printf("%s: %s\n", what, ok ? "ok" : "WRONG");
  failures += !ok;
}

struct S {
  int pad;
  double v[N];
};

int main(void) {
  double r[N];
  for (int i = 0; i < N; i++) r[i] = i;
#pragma omp target enter data map(to : r[0:N])
#pragma omp target
  for (int i = 0; i < N; i++) r[i] = 100 + i;
#pragma omp target update from(r[1:5:3])
  int ok = 1;
  for (int i = 0; i < N; i++) {
    int moved = i >= 1 && i <= 13 && (i - 1) % 3 == 0;
    ok &= r[i] == (moved ? 100 + i : i);
  }
  check("1-D from", ok);

  // to: every other element of the host's values; the device keeps the rest.
  for (int i = 0; i < N; i++) r[i] = -i;
#pragma omp target update to(r[0:8:2])
#pragma omp target update from(r[0:N])
  ok = 1;
  for (int i = 0; i < N; i++) ok &= r[i] == (i % 2 == 0 ? -i : 100 + i);
  check("1-D to", ok);

  // [lower::stride]: the length runs to the end of the array.
  for (int i = 0; i < N; i++) r[i] = 0;
#pragma omp target update from(r[3::4])
  ok = 1;
  for (int i = 0; i < N; i++) ok &= r[i] == (i >= 3 && (i - 3) % 4 == 0 ? (i % 2 == 0 ? -i : 100 + i) : 0);
  check("omitted length", ok);
#pragma omp target exit data map(delete : r[0:N])

  long n = 1001;
  int *p = malloc(n * sizeof *p);
  for (long i = 0; i < n; i++) p[i] = 0;
#pragma omp target data map(to : p[0:n])
  {
#pragma omp target teams distribute parallel for
    for (long i = 0; i < n; i++) p[i] = (int)(7 * i);
#pragma omp target update from(p[2:(n - 2 + 9) / 10:10])
  }
  ok = 1;
  for (long i = 0; i < n; i++) ok &= p[i] == (i >= 2 && (i - 2) % 10 == 0 ? 7 * i : 0);
  check("pointer", ok);
  free(p);

  int m[R][C];
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) m[i][j] = 0;
#pragma omp target data map(to : m)
  {
#pragma omp target teams distribute parallel for collapse(2)
    for (int i = 0; i < R; i++)
      for (int j = 0; j < C; j++) m[i][j] = 10 * i + j + 1;
    // Rows 1, 3, 5, whole.
#pragma omp target update from(m[1:3:2][0:C])
    ok = 1;
    for (int i = 0; i < R; i++)
      for (int j = 0; j < C; j++) ok &= m[i][j] == (i % 2 ? 10 * i + j + 1 : 0);
    check("2-D outer stride", ok);
    // Row 0, columns 0, 3, 6.
#pragma omp target update from(m[0][0:3:3])
    ok = 1;
    for (int j = 0; j < C; j++) ok &= m[0][j] == (j % 3 == 0 ? j + 1 : 0);
    check("2-D inner stride", ok);
    // A block: rows 2-4, columns 1-2 (contiguous per row, not as a whole).
    for (int i = 0; i < R; i++)
      for (int j = 0; j < C; j++) m[i][j] = -1;
#pragma omp target update from(m[2:3][1:2])
    ok = 1;
    for (int i = 0; i < R; i++)
      for (int j = 0; j < C; j++)
        ok &= m[i][j] == (i >= 2 && i <= 4 && j >= 1 && j <= 2 ? 10 * i + j + 1 : -1);
    check("2-D block", ok);
  }

  struct S s = {0};
#pragma omp target enter data map(to : s)
#pragma omp target
  for (int i = 0; i < N; i++) s.v[i] = i + 0.5;
#pragma omp target update from(s.v[0:4:5])
  ok = 1;
  for (int i = 0; i < N; i++) ok &= s.v[i] == (i % 5 == 0 ? i + 0.5 : 0);
  check("member", ok);

  // if(0): nothing moves.
  for (int i = 0; i < N; i++) s.v[i] = 0;
  int zero = 0;
#pragma omp target update from(s.v[0:8:2]) if(zero)
  ok = 1;
  for (int i = 0; i < N; i++) ok &= s.v[i] == 0;
  check("if(0)", ok);

  // depend and nowait with a device clause: done when the taskwait returns.
  int dev = omp_get_default_device();
#pragma omp target update from(s.v[1:3:7]) nowait depend(out : s) device(dev)
#pragma omp taskwait
  ok = 1;
  for (int i = 0; i < N; i++) ok &= s.v[i] == (i == 1 || i == 8 || i == 15 ? i + 0.5 : 0);
  check("depend nowait device", ok);
#pragma omp target exit data map(delete : s)

  printf(failures ? "FAIL\n" : "PASS\n");
  return failures != 0;
}
