// Every OpenMP reduction operator on every arithmetic type at the worker and vector levels: a
// parallel region (worker, one warp each) nested in a teams loop, and a parallel region nested in
// it (vector, on the lanes of the worker's warp: a shuffle tree), as the OpenACC front end makes
// `loop worker` / `loop vector`. Rows of 37 elements, 4 rows per team: the vector level reduces a
// row (16 lanes: more iterations than lanes), the worker level reduces a team's rows (fewer rows
// than workers), for 0, 5 and 20011 elements. Each result is compared with the serial one.
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: %run %t | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASS {{[0-9]+}} checks
/* One operator, one type: rows reduced on the lanes, groups of 4 rows over the workers. */
#define TEST_OP(T, NAME, OP, INIT, COMB)                                                           \
  static void test_##NAME##_##T(const T *a, int n) {                                               \
    int rows = n / 37, groups = (rows + 3) / 4;                                                    \
    T row[N_BIG / 37 + 1], group[N_BIG / 37 / 4 + 2];                                              \
    PRAGMA(omp target teams distribute map(to: a[0:n]) map(from: row[0:rows], group[0:groups]))    \
    for (int g = 0; g < groups; g++) {                                                             \
      T t = INIT;                                                                                  \
      PRAGMA(omp parallel for reduction(OP: t))                                                    \
      for (int r = g * 4; r < MINV(g * 4 + 4, rows); r++) {                                        \
        T s = INIT;                                                                                \
        PRAGMA(omp parallel for num_threads(16) reduction(OP: s))                                  \
        for (int j = 0; j < 37; j++) s = COMB(s, a[r * 37 + j]);                                   \
        row[r] = s;                                                                                \
        t = COMB(t, s);                                                                            \
      }                                                                                            \
      group[g] = t;                                                                                \
    }                                                                                              \
    for (int g = 0; g < groups; g++) {                                                             \
      T wt = INIT;                                                                                 \
      for (int r = g * 4; r < MINV(g * 4 + 4, rows); r++) {                                        \
        T w = INIT;                                                                                \
        for (int j = 0; j < 37; j++) w = COMB(w, a[r * 37 + j]);                                   \
        REPORT(#NAME, T, "vector", r, row[r], w);                                                  \
        wt = COMB(wt, w);                                                                          \
      }                                                                                            \
      REPORT(#NAME, T, "worker", g, group[g], wt);                                                 \
    }                                                                                              \
  }

#include "Inputs/reduction-matrix.h"
