// target update of a strided section of structs that a mapper maps (OpenMP 5.2 §5.8.8 declare
// mapper, §13.9 target update: a motion clause's list item with a stride, through the mapper the
// mapper modifier names or the type's default mapper): for every element the stride selects,
// what the mapper lists moves — here the data a member pointer points to — and nothing of the
// elements it skips. The same through a named mapper on a two-dimensional section.
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: %run %t | FileCheck %s
// CHECK: default mapper from: ok
// CHECK-NEXT: default mapper to: ok
// CHECK-NEXT: named mapper 2-D: ok
// CHECK-NEXT: PASS
#include <stdio.h>

#define N 8
#define M 4

typedef struct {
  int n;
  double *x;
} vec;
#pragma omp declare mapper(vec v) map(v, v.x[0 : v.n])

typedef struct {
  int n;
  int *k;
} cell;
#pragma omp declare mapper(halo : cell c) map(c, c.k[0 : c.n])

static int failures;
static void check(const char *what, int ok) {
  printf("%s: %s\n", what, ok ? "ok" : "WRONG");
  failures += !ok;
}

int main(void) {
  static double store[N][M];
  vec v[N];
  for (int i = 0; i < N; i++) {
    v[i].n = M;
    v[i].x = store[i];
    for (int j = 0; j < M; j++)
      store[i][j] = 0;
  }
#pragma omp target enter data map(to : v[0 : N])
#pragma omp target teams distribute parallel for
  for (int i = 0; i < N; i++)
    for (int j = 0; j < v[i].n; j++)
      v[i].x[j] = 10 * i + j;
  // Every other vector's data comes back; the others keep the host's zeros.
#pragma omp target update from(v[0 : N / 2 : 2])
  int ok = 1;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      ok &= store[i][j] == (i % 2 == 0 ? 10 * i + j : 0);
  check("default mapper from", ok);

  // Host changes to every vector; only vectors 1, 4 and 7 go to the device.
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      store[i][j] = -1;
#pragma omp target update to(v[1 : 3 : 3])
  double seen[N][M];
#pragma omp target teams distribute parallel for map(from : seen)
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      seen[i][j] = v[i].x[j];
  ok = 1;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      ok &= seen[i][j] == (i % 3 == 1 ? -1 : 10 * i + j);
  check("default mapper to", ok);
#pragma omp target exit data map(release : v[0 : N])

  // A named mapper on a two-dimensional section, strided in both dimensions.
  static int data[4][6][2];
  cell g[4][6];
  for (int a = 0; a < 4; a++)
    for (int b = 0; b < 6; b++) {
      g[a][b].n = 2;
      g[a][b].k = data[a][b];
      data[a][b][0] = data[a][b][1] = 0;
    }
#pragma omp target enter data map(mapper(halo), to : g[0 : 4])
#pragma omp target teams distribute parallel for collapse(2)
  for (int a = 0; a < 4; a++)
    for (int b = 0; b < 6; b++) {
      g[a][b].k[0] = 100 * a + b;
      g[a][b].k[1] = -(100 * a + b);
    }
#pragma omp target update from(mapper(halo) : g[1 : 2 : 2][0 : 3 : 2])
  ok = 1;
  for (int a = 0; a < 4; a++)
    for (int b = 0; b < 6; b++) {
      int taken = (a == 1 || a == 3) && b % 2 == 0;
      ok &= data[a][b][0] == (taken ? 100 * a + b : 0);
      ok &= data[a][b][1] == (taken ? -(100 * a + b) : 0);
    }
  check("named mapper 2-D", ok);
#pragma omp target exit data map(mapper(halo), release : g[0 : 4])

  printf(failures ? "FAIL\n" : "PASS\n");
  return failures != 0;
}
