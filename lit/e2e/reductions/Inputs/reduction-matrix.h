/* The operator x type matrix of the reduction tests: each test file defines
 * TEST_OP(T, NAME, OP, INIT, COMB), a function test_NAME_T(const T *a, int n) that checks one
 * operator on one type at its levels with REPORT, then includes this file, which instantiates it
 * for every operator and type and runs it on 0, 5 and N_BIG elements. */
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
