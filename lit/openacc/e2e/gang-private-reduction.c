// A variable private to each gang (or worker) and reduced over an inner loop: the per-gang
// accumulator of NPB CG (`loop gang private(d)` over `loop worker vector reduction(+:d)`).
// Every reduction operator at every inner level, in parallel (combined and not), with a
// worker-private accumulator, and in serial; each row is compared with the serial answer.
// REQUIRES: libptxrt
// RUN: %ptxcc -fopenacc %s -o %t && %run %t | FileCheck %s
// CHECK: PASS
#include <stdio.h>
#define N 40
#define M 96
#define P(x) _Pragma(#x)

static int ai[N * M], am[N * M], aa[N * M], al[N * M], ao[N * M];
static double ad[N * M], adm[N * M];
static int bad;

#define ADD(x, y) ((x) + (y))
#define MUL(x, y) ((x) * (y))
#define MAX(x, y) ((y) > (x) ? (y) : (x))
#define MIN(x, y) ((y) < (x) ? (y) : (x))
#define AND(x, y) ((x) & (y))
#define OR(x, y) ((x) | (y))
#define XOR(x, y) ((x) ^ (y))
#define LAND(x, y) ((x) && (y))
#define LOR(x, y) ((x) || (y))

// Compares r with the serial answer of each row.
#define CHECK(NAME, r, T, INIT, F, A)                                                            \
  for (int i = 0; i < N; i++) {                                                                   \
    T w = INIT;                                                                                   \
    for (int j = 0; j < M; j++) w = F(w, A[i * M + j]);                                           \
    if (r[i] != w && bad++ < 10)                                                                  \
      printf("%s row %d: %g, want %g\n", NAME, i, (double)r[i], (double)w);                      \
  }

// parallel loop gang private(d) / loop LEVEL reduction(OP:d)
#define GANG_COMBINED(ID, T, OP, INIT, F, A, LEVEL)                                              \
  static void ID(void) {                                                                          \
    T d, r[N];                                                                                    \
    P(acc parallel loop gang private(d) copyin(A) copyout(r))                                     \
    for (int i = 0; i < N; i++) {                                                                 \
      d = INIT;                                                                                   \
      P(acc loop LEVEL reduction(OP:d))                                                           \
      for (int j = 0; j < M; j++) d = F(d, A[i * M + j]);                                         \
      r[i] = d;                                                                                   \
    }                                                                                             \
    CHECK(#ID, r, T, INIT, F, A)                                                                  \
  }

// parallel { loop gang private(d) { loop LEVEL reduction(OP:d) } }
#define GANG_IN_PARALLEL(ID, T, OP, INIT, F, A, LEVEL)                                           \
  static void ID(void) {                                                                          \
    T d, r[N];                                                                                    \
    P(acc parallel num_gangs(7) copyin(A) copyout(r))                                             \
    {                                                                                             \
      P(acc loop gang private(d))                                                                 \
      for (int i = 0; i < N; i++) {                                                               \
        d = INIT;                                                                                 \
        P(acc loop LEVEL reduction(OP:d))                                                         \
        for (int j = 0; j < M; j++) d = F(d, A[i * M + j]);                                       \
        r[i] = d;                                                                                 \
      }                                                                                           \
    }                                                                                             \
    CHECK(#ID, r, T, INIT, F, A)                                                                  \
  }

// parallel loop gang / loop worker private(d) / loop vector reduction(OP:d): one accumulator
// per worker.
#define WORKER_PRIVATE(ID, T, OP, INIT, F, A, LEVEL)                                             \
  static void ID(void) {                                                                          \
    T d, r[N];                                                                                    \
    P(acc parallel loop gang num_workers(4) vector_length(32) copyin(A) copyout(r))              \
    for (int g = 0; g < N / 4; g++) {                                                             \
      P(acc loop worker private(d))                                                               \
      for (int i = g * 4; i < g * 4 + 4; i++) {                                                   \
        d = INIT;                                                                                 \
        P(acc loop LEVEL reduction(OP:d))                                                         \
        for (int j = 0; j < M; j++) d = F(d, A[i * M + j]);                                       \
        r[i] = d;                                                                                 \
      }                                                                                           \
    }                                                                                             \
    CHECK(#ID, r, T, INIT, F, A)                                                                  \
  }

// serial loop private(d) / loop LEVEL reduction(OP:d)
#define SERIAL(ID, T, OP, INIT, F, A, LEVEL)                                                     \
  static void ID(void) {                                                                          \
    T d, r[N];                                                                                    \
    P(acc serial loop private(d) copyin(A) copyout(r))                                            \
    for (int i = 0; i < N; i++) {                                                                 \
      d = INIT;                                                                                   \
      P(acc loop LEVEL reduction(OP:d))                                                           \
      for (int j = 0; j < M; j++) d = F(d, A[i * M + j]);                                         \
      r[i] = d;                                                                                   \
    }                                                                                             \
    CHECK(#ID, r, T, INIT, F, A)                                                                  \
  }

// Every operator: X(name, type, operator, identity, combine, data).
#define OPS(X)                                                                                    \
  X(add_i, int, +, 0, ADD, ai)                                                                    \
  X(mul_i, int, *, 1, MUL, am)                                                                    \
  X(max_i, int, max, -100000, MAX, ai)                                                            \
  X(min_i, int, min, 100000, MIN, ai)                                                             \
  X(and_i, int, &, ~0, AND, aa)                                                                   \
  X(or_i, int, |, 0, OR, aa)                                                                      \
  X(xor_i, int, ^, 0, XOR, ai)                                                                    \
  X(land_i, int, &&, 1, LAND, al)                                                                 \
  X(lor_i, int, ||, 0, LOR, ao)                                                                   \
  X(add_d, double, +, 0.0, ADD, ad)                                                               \
  X(mul_d, double, *, 1.0, MUL, adm)                                                              \
  X(max_d, double, max, -1e30, MAX, ad)                                                           \
  X(min_d, double, min, 1e30, MIN, ad)

#define GC_W(n, T, O, I, F, A) GANG_COMBINED(gc_w_##n, T, O, I, F, A, worker)
#define GC_V(n, T, O, I, F, A) GANG_COMBINED(gc_v_##n, T, O, I, F, A, vector)
#define GC_WV(n, T, O, I, F, A) GANG_COMBINED(gc_wv_##n, T, O, I, F, A, worker vector)
#define GP_WV(n, T, O, I, F, A) GANG_IN_PARALLEL(gp_wv_##n, T, O, I, F, A, worker vector)
#define GP_V(n, T, O, I, F, A) GANG_IN_PARALLEL(gp_v_##n, T, O, I, F, A, vector)
#define WP_V(n, T, O, I, F, A) WORKER_PRIVATE(wp_v_##n, T, O, I, F, A, vector)
#define SE_V(n, T, O, I, F, A) SERIAL(se_v_##n, T, O, I, F, A, vector)
#define SE_WV(n, T, O, I, F, A) SERIAL(se_wv_##n, T, O, I, F, A, worker vector)
OPS(GC_W)
OPS(GC_V)
OPS(GC_WV)
OPS(GP_WV)
OPS(GP_V)
OPS(WP_V)
OPS(SE_V)
OPS(SE_WV)

#define RUN(prefix)                                                                               \
  prefix##add_i(); prefix##mul_i(); prefix##max_i(); prefix##min_i(); prefix##and_i();            \
  prefix##or_i(); prefix##xor_i(); prefix##land_i(); prefix##lor_i(); prefix##add_d();            \
  prefix##mul_d(); prefix##max_d(); prefix##min_d();

int main(void) {
  for (int k = 0; k < N * M; k++) {
    ai[k] = (k * 7919) % 1000 - 300;
    am[k] = k % 17 == 0 ? -1 : k % 23 == 0 ? 2 : 1;
    aa[k] = ~(1 << (k * 7 % 29)) ^ (k % 5 == 0 ? ~0 : 0);
    al[k] = k % 101 != 0;
    ao[k] = k % 131 == 0;
    ad[k] = (k % 97) * 0.25 - 7;
    adm[k] = k % 19 == 0 ? 2.0 : k % 29 == 0 ? -0.5 : 1.0;
  }
  RUN(gc_w_) RUN(gc_v_) RUN(gc_wv_) RUN(gp_wv_) RUN(gp_v_) RUN(wp_v_) RUN(se_v_) RUN(se_wv_)
  printf(bad ? "FAIL (%d)\n" : "PASS\n", bad);
  return bad != 0;
}
