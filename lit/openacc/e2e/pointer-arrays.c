// Sections through arrays of pointers (`double **a` with copyin(a[0:n][0:m]), `float *rows[N]`,
// `int ***`), as C codes allocate their 2-D and 3-D arrays: on compute, data and kernels
// constructs, enter/exit data in create/destroy functions, update of some rows, async.
// REQUIRES: libptxrt
// RUN: %ptxcc -fopenacc %s -o %t && %run %t | FileCheck %s
// CHECK: PASS
#include <stdio.h>
#include <stdlib.h>
#define R 8

static double **alloc2(int n, int m) {
  double **a = malloc(n * sizeof(double *));
  for (int i = 0; i < n; i++) a[i] = malloc(m * sizeof(double));
  return a;
}

typedef struct { int n, m; double **v; } grid_t;

static grid_t *grid_create(int n, int m) {
  grid_t *g = malloc(sizeof *g);
  g->n = n; g->m = m; g->v = alloc2(n, m);
  for (int i = 0; i < n; i++) for (int j = 0; j < m; j++) g->v[i][j] = i + 0.5 * j;
  double **v = g->v;
  #pragma acc enter data copyin(v[0:n][0:m])
  return g;
}

static void grid_destroy(grid_t *g, double **out) {
  double **v = g->v;
  int n = g->n, m = g->m;
  #pragma acc exit data copyout(v[0:n][0:m])
  for (int i = 0; i < n; i++) for (int j = 0; j < m; j++) out[i][j] = v[i][j];
}

static void scale(double **v, int n, int m, double s) {
  #pragma acc parallel loop collapse(2) present(v[0:n][0:m])
  for (int i = 0; i < n; i++) for (int j = 0; j < m; j++) v[i][j] *= s;
}

int main(void) {
  int n = 37, m = 53, bad = 0;
  double **a = alloc2(n, m), **b = alloc2(n, m);
  for (int i = 0; i < n; i++) for (int j = 0; j < m; j++) { a[i][j] = i * m + j; b[i][j] = -1; }

  // Compute construct: copyin + copyout, and a reduction over the rows.
  double sum = 0;
  #pragma acc parallel loop copyin(a[0:n][0:m]) copyout(b[1:n-2][0:m]) reduction(+:sum)
  for (int i = 1; i < n - 1; i++)
    for (int j = 0; j < m; j++) { b[i][j] = 2 * a[i][j]; sum += a[i][j]; }
  for (int i = 0; i < n; i++) for (int j = 0; j < m; j++) {
    double want = (i == 0 || i == n - 1) ? -1 : 2.0 * (i * m + j);
    if (b[i][j] != want) bad |= 1;
  }
  double ref = 0;
  for (int i = 1; i < n - 1; i++) for (int j = 0; j < m; j++) ref += i * m + j;
  if (sum != ref) bad |= 2;

  // Data region spanning calls with present, update of a few rows in between.
  #pragma acc data copy(a[0:n][0:m])
  {
    scale(a, n, m, 3.0);
    #pragma acc update self(a[2:3][0:m])
    if (a[3][4] != 3.0 * (3 * m + 4) || a[5][0] != 5.0 * m) bad |= 4;
    a[6][1] = -7;
    #pragma acc update device(a[6:1][0:m])
    #pragma acc kernels
    for (int i = 0; i < n; i++) for (int j = 0; j < m; j++) a[i][j] += 1;
  }
  for (int i = 0; i < n; i++) for (int j = 0; j < m; j++) {
    // Row 6 went back to the device with its host values (not scaled) and one change.
    double want = i != 6 ? 3.0 * (i * m + j) + 1 : j == 1 ? -6 : i * m + j + 1.0;
    if (a[i][j] != want) bad |= 8;
  }

  // enter/exit data in create/destroy functions.
  grid_t *g = grid_create(n, m);
  scale(g->v, n, m, 2.0);
  grid_destroy(g, b);
  if (b[4][6] != 2 * (4 + 3.0) || b[n - 1][m - 1] != 2 * (n - 1 + 0.5 * (m - 1))) bad |= 16;

  // An array of row pointers, async on a queue.
  float *rows[R];
  for (int r = 0; r < R; r++) { rows[r] = malloc(m * sizeof(float)); for (int j = 0; j < m; j++) rows[r][j] = r; }
  #pragma acc parallel loop copy(rows[:][0:m]) async(3)
  for (int r = 0; r < R; r++) for (int j = 0; j < m; j++) rows[r][j] += j;
  #pragma acc wait(3)
  for (int r = 0; r < R; r++) for (int j = 0; j < m; j++) if (rows[r][j] != r + j) bad |= 32;

  // Three levels.
  int ***t = malloc(3 * sizeof(int **));
  for (int x = 0; x < 3; x++) {
    t[x] = malloc(4 * sizeof(int *));
    for (int y = 0; y < 4; y++) { t[x][y] = malloc(5 * sizeof(int)); for (int z = 0; z < 5; z++) t[x][y][z] = 0; }
  }
  #pragma acc parallel loop collapse(3) copy(t[0:3][0:4][0:5])
  for (int x = 0; x < 3; x++) for (int y = 0; y < 4; y++) for (int z = 0; z < 5; z++) t[x][y][z] = 100 * x + 10 * y + z;
  for (int x = 0; x < 3; x++) for (int y = 0; y < 4; y++) for (int z = 0; z < 5; z++) if (t[x][y][z] != 100 * x + 10 * y + z) bad |= 64;

  printf("%s %d\n", bad ? "FAIL" : "PASS", bad);
  return bad;
}
