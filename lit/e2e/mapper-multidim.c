// Multi-dimensional arrays of structs that a declare mapper maps (OpenMP 5.2 §5.8.8: the mapper
// applies to every element of an array or array section of its type). Clang 19 maps most
// spellings of such an item without the mapper — the structs' bytes only, their pointer members
// left pointing at host memory — and maps a[1:2][0:2] through the mapper over rows 0 and 1.
// ptxcc writes each item the way clang maps it right (driver/src/omp_front/mapper_items.rs):
// every struct's pointer must be attached (differ from the host's on the device) and its data
// must make the round trip. On the emulator a host pointer would still work; the attachment
// check tells the two apart there too.
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: %run %t | FileCheck %s
// CHECK: whole 2-D: ok
// CHECK-NEXT: 2-D section of every row: ok
// CHECK-NEXT: rows 1..2 with [:]: ok
// CHECK-NEXT: pointer to rows: ok
// CHECK-NEXT: enter/exit data of the whole array: ok
// CHECK-NEXT: update from the whole 2-D array: ok
// CHECK-NEXT: update to the whole 3-D array: ok
// CHECK-NEXT: 3-D through a pointer to the first struct: ok
// CHECK-NEXT: 3-D row by indices: ok
// CHECK-NEXT: member, whole: ok
// CHECK-NEXT: member through a pointer, rows with [:]: ok
// CHECK-NEXT: PASS
#include <stdint.h>
#include <stdio.h>

typedef struct {
  int n;
  double *x;
} vec;
#pragma omp declare mapper(vec v) map(v, v.x[0 : v.n])

#define R 3
#define C 2
#define E 4

struct holder {
  int tag;
  vec grid[R][C];
};

static double store[2 * R * C][E];
static uintptr_t host[2 * R * C];
static int failures;

// Points the structs of `a` (n of them, in memory order) at rows of `store`, zeroed.
static void prepare(vec *a, int n) {
  for (int l = 0; l < n; l++) {
    a[l].n = E;
    a[l].x = store[l];
    host[l] = (uintptr_t)store[l];
    for (int e = 0; e < E; e++)
      store[l][e] = 0;
  }
}

// Structs first..last-1 got 100*l + e through the device, and each was attached there.
static void check(const char *what, const int *attached, int first, int last) {
  int ok = 1;
  for (int l = first; l < last; l++) {
    ok &= attached[l] == 1;
    for (int e = 0; e < E; e++)
      ok &= store[l][e] == 100 * l + e;
  }
  printf("%s: %s\n", what, ok ? "ok" : "WRONG");
  failures += !ok;
}

int main(void) {
  vec a[R][C];
  int att[2 * R * C];

  prepare(&a[0][0], R * C);
#pragma omp target map(tofrom : a) map(to : host) map(from : att)
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) {
      int l = i * C + j;
      att[l] = (uintptr_t)a[i][j].x != host[l];
      for (int e = 0; e < E; e++)
        a[i][j].x[e] = 100 * l + e;
    }
  check("whole 2-D", att, 0, R * C);

  prepare(&a[0][0], R * C);
#pragma omp target map(tofrom : a[0 : R][0 : C]) map(to : host) map(from : att)
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) {
      int l = i * C + j;
      att[l] = (uintptr_t)a[i][j].x != host[l];
      for (int e = 0; e < E; e++)
        a[i][j].x[e] = 100 * l + e;
    }
  check("2-D section of every row", att, 0, R * C);

  // Clang 19 runs the mapper over rows 0 and 1 for this one.
  prepare(&a[0][0], R * C);
#pragma omp target map(tofrom : a[1 : 2][:]) map(to : host) map(from : att[C : 2 * C])
  for (int i = 1; i < R; i++)
    for (int j = 0; j < C; j++) {
      int l = i * C + j;
      att[l] = (uintptr_t)a[i][j].x != host[l];
      for (int e = 0; e < E; e++)
        a[i][j].x[e] = 100 * l + e;
    }
  check("rows 1..2 with [:]", att, C, R * C);

  vec(*p)[C] = a;
  prepare(&a[0][0], R * C);
#pragma omp target map(tofrom : p[0 : R][0 : C]) map(to : host) map(from : att)
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) {
      int l = i * C + j;
      att[l] = (uintptr_t)p[i][j].x != host[l];
      for (int e = 0; e < E; e++)
        p[i][j].x[e] = 100 * l + e;
    }
  check("pointer to rows", att, 0, R * C);

  prepare(&a[0][0], R * C);
#pragma omp target enter data map(to : a)
#pragma omp target map(to : host) map(from : att)
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) {
      int l = i * C + j;
      att[l] = (uintptr_t)a[i][j].x != host[l];
      for (int e = 0; e < E; e++)
        a[i][j].x[e] = 100 * l + e;
    }
#pragma omp target exit data map(from : a)
  check("enter/exit data of the whole array", att, 0, R * C);

  // The data comes back by `update from(a)` alone: the device's copies stay until the delete.
  prepare(&a[0][0], R * C);
#pragma omp target enter data map(to : a[0 : R])
#pragma omp target map(to : host) map(from : att)
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) {
      int l = i * C + j;
      att[l] = (uintptr_t)a[i][j].x != host[l];
      for (int e = 0; e < E; e++)
        a[i][j].x[e] = 100 * l + e;
    }
#pragma omp target update from(a)
  check("update from the whole 2-D array", att, 0, R * C);
#pragma omp target exit data map(delete : a[0 : R])

  // 3-D: `update to` of the whole array (element by element through the mapper), then the
  // device doubles nothing but reads what came.
  vec b[2][R][C];
  vec *b_p = &b[0][0][0];
  prepare(b_p, 2 * R * C);
#pragma omp target enter data map(to : b_p[0 : 2 * R * C])
  for (int l = 0; l < 2 * R * C; l++)
    for (int e = 0; e < E; e++)
      store[l][e] = 100 * l + e;
#pragma omp target update to(b)
  double sum = 0, want = 0;
#pragma omp target map(tofrom : sum) map(to : host) map(from : att)
  for (int k = 0; k < 2; k++)
    for (int i = 0; i < R; i++)
      for (int j = 0; j < C; j++) {
        int l = (k * R + i) * C + j;
        att[l] = (uintptr_t)b[k][i][j].x != host[l];
        for (int e = 0; e < E; e++)
          sum += b[k][i][j].x[e];
      }
  for (int l = 0; l < 2 * R * C; l++)
    for (int e = 0; e < E; e++)
      want += 100 * l + e;
  int ok = sum == want;
  for (int l = 0; l < 2 * R * C; l++)
    ok &= att[l] == 1;
  printf("update to the whole 3-D array: %s\n", ok ? "ok" : "WRONG");
  failures += !ok;
#pragma omp target exit data map(delete : b_p[0 : 2 * R * C])

  // The spelling ptxcc's error gives for a 3-D array: through a pointer to the first struct;
  // the construct finds `b` present.
  prepare(b_p, 2 * R * C);
#pragma omp target map(tofrom : b_p[0 : 2 * R * C]) map(to : host) map(from : att)
  for (int k = 0; k < 2; k++)
    for (int i = 0; i < R; i++)
      for (int j = 0; j < C; j++) {
        int l = (k * R + i) * C + j;
        att[l] = (uintptr_t)b[k][i][j].x != host[l];
        for (int e = 0; e < E; e++)
          b[k][i][j].x[e] = 100 * l + e;
      }
  check("3-D through a pointer to the first struct", att, 0, 2 * R * C);

  // One row named by indices, then a section: clang's own, through the mapper.
  prepare(b_p, 2 * R * C);
#pragma omp target map(tofrom : b[1][2][0 : C]) map(to : host) map(from : att[10 : 2])
  for (int j = 0; j < C; j++) {
    int l = (1 * R + 2) * C + j;
    att[l] = (uintptr_t)b[1][2][j].x != host[l];
    for (int e = 0; e < E; e++)
      b[1][2][j].x[e] = 100 * l + e;
  }
  check("3-D row by indices", att, 10, 12);

  // A 2-D member of a struct: the whole member, and its rows through a pointer to the struct.
  struct holder h, *hp = &h;
  prepare(&h.grid[0][0], R * C);
#pragma omp target map(tofrom : h.grid) map(to : host) map(from : att)
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) {
      int l = i * C + j;
      att[l] = (uintptr_t)h.grid[i][j].x != host[l];
      for (int e = 0; e < E; e++)
        h.grid[i][j].x[e] = 100 * l + e;
    }
  check("member, whole", att, 0, R * C);
  prepare(&h.grid[0][0], R * C);
#pragma omp target map(tofrom : hp->grid[0 : R][:]) map(to : host) map(from : att)
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) {
      int l = i * C + j;
      att[l] = (uintptr_t)hp->grid[i][j].x != host[l];
      for (int e = 0; e < E; e++)
        hp->grid[i][j].x[e] = 100 * l + e;
    }
  check("member through a pointer, rows with [:]", att, 0, R * C);

  printf("%s\n", failures ? "FAIL" : "PASS");
  return failures != 0;
}
