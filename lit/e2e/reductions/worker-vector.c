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
#include <stdio.h>
#include <math.h>

#define N_BIG 20011
static int failures, checks;

static int close_enough(double got, double want) {
  return got == want || fabs(got - want) <= 1e-5 * fabs(want) + 1e-9;
}

#define PRAGMA(x) _Pragma(#x)
#define VAL(T, i) ((T)((i) % 7 == 3 ? 2 : ((i) % 11 == 5 ? -1 : 1)))
#define MAXV(a, b) ((a) > (b) ? (a) : (b))
#define MINV(a, b) ((a) < (b) ? (a) : (b))

#define REPORT(name, T, level, n, got, want)                                                       \
  do {                                                                                             \
    checks++;                                                                                      \
    if (!close_enough((double)(got), (double)(want))) {                                            \
      failures++;                                                                                  \
      printf("FAIL %s %s %s n=%d: got %g want %g\n", #T, name, level, n, (double)(got), (double)(want)); \
    }                                                                                              \
  } while (0)

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

#define ADD(a, b) ((a) + (b))
#define MUL(a, b) ((a) * (b))
#define AND(a, b) ((a) & (b))
#define OR(a, b) ((a) | (b))
#define XOR(a, b) ((a) ^ (b))
#define LAND(a, b) ((a) && (b))
#define LOR(a, b) ((a) || (b))

#define ARITH(T)                                                                                   \
  TEST_OP(T, add, +, 0, ADD)                                                                       \
  TEST_OP(T, mul, *, 1, MUL)                                                                       \
  TEST_OP(T, max, max, (T)-100, MAXV)                                                              \
  TEST_OP(T, min, min, (T)100, MINV)                                                               \
  TEST_OP(T, land, &&, 1, LAND)                                                                    \
  TEST_OP(T, lor, ||, 0, LOR)
#define BITS(T)                                                                                    \
  TEST_OP(T, band, &, (T)~(T)0, AND)                                                               \
  TEST_OP(T, bor, |, 0, OR)                                                                        \
  TEST_OP(T, bxor, ^, 0, XOR)

typedef unsigned int uint;
typedef unsigned long ulong;
ARITH(int) BITS(int)
ARITH(uint) BITS(uint)
ARITH(long) BITS(long)
ARITH(ulong) BITS(ulong)
ARITH(float)
ARITH(double)

#define FILL(T, arr, n) for (int i = 0; i < n; i++) arr[i] = VAL(T, i)
#define RUN_ARITH(T, arr, n) test_add_##T(arr, n); test_mul_##T(arr, n); test_max_##T(arr, n); \
  test_min_##T(arr, n); test_land_##T(arr, n); test_lor_##T(arr, n);
#define RUN_BITS(T, arr, n) test_band_##T(arr, n); test_bor_##T(arr, n); test_bxor_##T(arr, n);

int main(void) {
  static int ai[N_BIG]; static uint au[N_BIG]; static long al[N_BIG]; static ulong aul[N_BIG];
  static float af[N_BIG]; static double ad[N_BIG];
  int sizes[] = {0, 5, N_BIG};
  for (int s = 0; s < 3; s++) {
    int n = sizes[s];
    FILL(int, ai, n); FILL(uint, au, n); FILL(long, al, n); FILL(ulong, aul, n);
    FILL(float, af, n); FILL(double, ad, n);
    /* keep products representable: only the first 40 values can be 2 or -1 */
    for (int i = 40; i < n; i++) { ai[i] = ai[i] < 0 ? 1 : ai[i]; al[i] = al[i] < 0 ? 1 : al[i]; }
    RUN_ARITH(int, ai, n) RUN_BITS(int, ai, n)
    RUN_ARITH(uint, au, n) RUN_BITS(uint, au, n)
    RUN_ARITH(long, al, n) RUN_BITS(long, al, n)
    RUN_ARITH(ulong, aul, n) RUN_BITS(ulong, aul, n)
    RUN_ARITH(float, af, n)
    RUN_ARITH(double, ad, n)
  }
  printf("%s %d checks\n", failures ? "FAILED" : "PASS", checks);
  return failures != 0;
}
