// Every OpenMP reduction operator on every arithmetic type, at each level of parallelism
// (combined teams+parallel, parallel alone, teams alone, and a parallel loop nested in a teams
// loop whose result the teams code stores), for loops of zero iterations, fewer iterations than
// threads, and more iterations than threads x teams. Each result is compared with the serial one.
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: %run %t | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASS {{[0-9]+}} checks
/* One operator, one type, four levels. INIT is the operator's identity; COMB(acc, v). */
#define TEST_OP(T, NAME, OP, INIT, COMB)                                                           \
  static void test_##NAME##_##T(const T *a, int n) {                                               \
    T want = INIT;                                                                                 \
    for (int i = 0; i < n; i++) want = COMB(want, a[i]);                                           \
    T r1 = INIT;                                                                                   \
    PRAGMA(omp target teams distribute parallel for map(to: a[0:n]) reduction(OP: r1))     \
    for (int i = 0; i < n; i++) r1 = COMB(r1, a[i]);                                               \
    REPORT(#NAME, T, "teams-parallel", n, r1, want);                                               \
    T r1b = INIT;                                                                                  \
    PRAGMA(omp target teams distribute parallel for map(to: a[0:n]) num_teams(3) thread_limit(64) reduction(OP: r1b)) \
    for (int i = 0; i < n; i++) r1b = COMB(r1b, a[i]);                                             \
    REPORT(#NAME, T, "teams-parallel-3x64", n, r1b, want);                                         \
    T r2 = INIT;                                                                                   \
    PRAGMA(omp target parallel for map(to: a[0:n]) reduction(OP: r2))                      \
    for (int i = 0; i < n; i++) r2 = COMB(r2, a[i]);                                               \
    REPORT(#NAME, T, "parallel", n, r2, want);                                                     \
    T r3 = INIT;                                                                                   \
    PRAGMA(omp target teams distribute map(to: a[0:n]) reduction(OP: r3))                  \
    for (int i = 0; i < n; i++) r3 = COMB(r3, a[i]);                                               \
    REPORT(#NAME, T, "teams", n, r3, want);                                                        \
    /* rows of 37 elements: the teams loop stores each row's reduction */                          \
    int rows = n / 37;                                                                             \
    T out[N_BIG / 37 + 1];                                                                         \
    PRAGMA(omp target teams distribute map(to: a[0:n]) map(from: out[0:rows]))                  \
    for (int r = 0; r < rows; r++) {                                                               \
      T s = INIT;                                                                                  \
      PRAGMA(omp parallel for reduction(OP: s))                                            \
      for (int j = 0; j < 37; j++) s = COMB(s, a[r * 37 + j]);                                     \
      out[r] = s;                                                                                  \
    }                                                                                              \
    for (int r = 0; r < rows; r++) {                                                               \
      T w = INIT;                                                                                  \
      for (int j = 0; j < 37; j++) w = COMB(w, a[r * 37 + j]);                                     \
      REPORT(#NAME, T, "inner", r, out[r], w);                                                     \
    }                                                                                              \
  }

#include "Inputs/reduction-matrix.h"
