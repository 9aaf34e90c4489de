// Sections through a struct member that is an array of pointers ('M->rows[0:n][0:m]' with
// 'double **rows'): the member's type gives the levels, as for a variable; enter/exit data in
// create/destroy functions, a compute construct that finds the struct present, update of some
// rows, and a data construct mapping the struct and its member's rows together (the struct is
// mapped first).
// REQUIRES: libptxrt
// RUN: %ptxcc -fopenacc %s -o %t && %run %t | FileCheck %s
// CHECK: PASS
#include <stdio.h>
#include <stdlib.h>
typedef struct { int n, m; double **rows; } mat_t;
typedef struct { mat_t a; double scale; } prob_t;

static void mat_init(mat_t *M, int n, int m) {
  M->n = n; M->m = m; M->rows = malloc(n * sizeof(double *));
  for (int i = 0; i < n; i++) {
    M->rows[i] = malloc(m * sizeof(double));
    for (int j = 0; j < m; j++) M->rows[i][j] = i + 0.01 * j;
  }
  #pragma acc enter data copyin(M[0:1])
  #pragma acc enter data copyin(M->rows[0:n][0:m])
}

static void mat_fini(mat_t *M) {
  #pragma acc exit data copyout(M->rows[0:M->n][0:M->m]) delete(M[0:1])
}

int main(void) {
  int bad = 0;
  mat_t M;
  mat_init(&M, 40, 30);
  #pragma acc parallel loop collapse(2) present(M)
  for (int i = 0; i < M.n; i++)
    for (int j = 0; j < M.m; j++) M.rows[i][j] *= 2;
  #pragma acc update self(M.rows[5:2][0:M.m])
  if (M.rows[5][3] != 2 * (5 + 0.03) || M.rows[7][0] != 7) bad |= 1;
  mat_fini(&M);
  for (int i = 0; i < M.n; i++)
    for (int j = 0; j < M.m; j++) if (M.rows[i][j] != 2 * (i + 0.01 * j)) bad |= 2;
  prob_t P;
  P.scale = 3; P.a.n = 10; P.a.m = 4; P.a.rows = malloc(10 * sizeof(double *));
  for (int i = 0; i < 10; i++) {
    P.a.rows[i] = malloc(4 * sizeof(double));
    for (int j = 0; j < 4; j++) P.a.rows[i][j] = j;
  }
  #pragma acc data copyin(P) copy(P.a.rows[0:10][0:4])
  {
    #pragma acc parallel loop present(P)
    for (int i = 0; i < 10; i++)
      for (int j = 0; j < 4; j++) P.a.rows[i][j] += P.scale * i;
  }
  for (int i = 0; i < 10; i++)
    for (int j = 0; j < 4; j++) if (P.a.rows[i][j] != j + 3.0 * i) bad |= 4;
  printf("%s %d\n", bad ? "FAIL" : "PASS", bad);
  return bad;
}
