/*
 * The layout study of issue 18 (the data-layout paper, ../shared/seeds/000_*.txt): the Himeno-style
 * Jacobi step of himeno.h with its coefficient array a in the paper's forms, on global arrays of a
 * grid fixed at build time (XS, 33x33x65, unless -DMI= -DMJ= -DMK=), one build per layout:
 *   -DFORM_4A      a[4][I][J][K]   (the coalesced form)
 *   (default)      a[I][J][K][4]   (the paper's original form: lanes along k step 16 bytes)
 *   -DFORM_HAND    a[I][J][4][K]   (the paper's transposed form, written by hand)
 *   -DTRANS        a[I][J][K][4] with #pragma ptxcc trans transpose(a[0:I][0:J][0:K][0:4], [1,2,4,3])
 *                  (with -DFORM_4A: a[4][I][J][K] made [I][J][K][4] on the device, [4,1,2,3])
 *   -fptxcc-layout=auto on either form: the compiler's choice.
 *   -DHEAP         a in heap memory (malloc), one flat array indexed by hand, as Himeno's own
 *                  code keeps its matrices: the compiler cannot prove a[i][j][k][0] 16-byte
 *                  aligned, so the four coefficients are four scalar loads 16 bytes apart per
 *                  lane, the access the paper measured (with FORM_HAND: [I][J][4][K] by hand)
 *   -DCOEF=double  a in double (Himeno's float: 16 bytes per k, which one ld.v4.f32 a thread
 *                  reads whole; double: 32 bytes, two ld.v2.f64 whose requests use half of
 *                  each sector they touch)
 * b and c stay [3][I][J][K]. Every build computes gosa and sum(p) on the device and serially and
 * prints VERIFICATION SUCCESSFUL when they agree (himeno.h's tolerances). Run by
 * test-suite/harness/layout_study.py on ptxsim's counters.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef MI /* the grid: -DMI=65 -DMJ=65 -DMK=129 is Himeno's S */
#define MI 33
#define MJ 33
#define MK 65
#endif
#ifndef ITERS
#define ITERS 2
#endif

#ifndef COEF
#define COEF float
#endif
#if defined(HEAP)
/* Himeno's own storage: the matrix in heap memory, indexed by hand as [I][J][K][4] (with
 * FORM_HAND: [I][J][4][K]), reached through a local pointer (a global one would be the
 * device's own global, attached to the copy). */
static COEF *heap_a;
#define LOCAL_A COEF *a = heap_a;
#if defined(FORM_HAND)
#define A(l, i, j, k) a[(((size_t)(i) * MJ + (j)) * 4 + (l)) * MK + (k)]
#else
#define A(l, i, j, k) a[(((size_t)(i) * MJ + (j)) * MK + (k)) * 4 + (l)]
#endif
#elif defined(FORM_4A)
static COEF a[4][MI][MJ][MK];
#define A(l, i, j, k) a[l][i][j][k]
#elif defined(FORM_HAND)
static COEF a[MI][MJ][4][MK];
#define A(l, i, j, k) a[i][j][l][k]
#else
static COEF a[MI][MJ][MK][4];
#define A(l, i, j, k) a[i][j][k][l]
#endif
#ifndef LOCAL_A
#define LOCAL_A
#endif
static float b[3][MI][MJ][MK], c[3][MI][MJ][MK], p[MI][MJ][MK], bnd[MI][MJ][MK], wrk1[MI][MJ][MK],
    wrk2[MI][MJ][MK], ps[MI][MJ][MK];

#define S0(P)                                                                                                    \
  (A(0, i, j, k) * P[i + 1][j][k] + A(1, i, j, k) * P[i][j + 1][k] + A(2, i, j, k) * P[i][j][k + 1] +            \
   b[0][i][j][k] * (P[i + 1][j + 1][k] - P[i + 1][j - 1][k] - P[i - 1][j + 1][k] + P[i - 1][j - 1][k]) +         \
   b[1][i][j][k] * (P[i][j + 1][k + 1] - P[i][j - 1][k + 1] - P[i][j + 1][k - 1] + P[i][j - 1][k - 1]) +         \
   b[2][i][j][k] * (P[i + 1][j][k + 1] - P[i - 1][j][k + 1] - P[i + 1][j][k - 1] + P[i - 1][j][k - 1]) +         \
   c[0][i][j][k] * P[i - 1][j][k] + c[1][i][j][k] * P[i][j - 1][k] + c[2][i][j][k] * P[i][j][k - 1] +            \
   wrk1[i][j][k])

static void init(void) {
  LOCAL_A
  for (int i = 0; i < MI; i++)
    for (int j = 0; j < MJ; j++)
      for (int k = 0; k < MK; k++) {
        for (int l = 0; l < 3; l++) {
          A(l, i, j, k) = 1.0f;
          b[l][i][j][k] = 0.0f;
          c[l][i][j][k] = 1.0f;
        }
        A(3, i, j, k) = 1.0f / 6.0f;
        p[i][j][k] = ps[i][j][k] = (float)(i * i) / ((MI - 1) * (MI - 1));
        bnd[i][j][k] = 1.0f;
        wrk1[i][j][k] = 0.0f;
      }
}

static double serial(void) {
  LOCAL_A
  double gosa = 0;
  for (int n = 0; n < ITERS; n++) {
    gosa = 0;
    for (int i = 1; i < MI - 1; i++)
      for (int j = 1; j < MJ - 1; j++)
        for (int k = 1; k < MK - 1; k++) {
          float ss = (S0(ps) * A(3, i, j, k) - ps[i][j][k]) * bnd[i][j][k];
          gosa += (double)ss * ss;
          wrk2[i][j][k] = ps[i][j][k] + 0.8f * ss;
        }
    for (int i = 1; i < MI - 1; i++)
      for (int j = 1; j < MJ - 1; j++)
        for (int k = 1; k < MK - 1; k++)
          ps[i][j][k] = wrk2[i][j][k];
  }
  return gosa;
}

int main(void) {
#if defined(HEAP)
  COEF *a = malloc(sizeof(COEF) * MI * MJ * MK * 4);
  if (!a)
    return 1;
  heap_a = a;
#endif
  init();
  double ref = serial();
  double gosa = 0;
#if defined(TRANS) && defined(FORM_4A)
  /* The coalesced form made the paper's original on the device: the directive's cost. */
#pragma ptxcc trans transpose(a[0:4][0:MI][0:MJ][0:MK], [4,1,2,3])
#elif defined(TRANS)
#pragma ptxcc trans transpose(a[0:MI][0:MJ][0:MK][0:4], [1,2,4,3])
#endif
#if defined(HEAP)
#pragma omp target data map(to : a[0:MI * MJ * MK * 4], b, c, bnd, wrk1) map(tofrom : p) map(alloc : wrk2)
#else
#pragma omp target data map(to : a, b, c, bnd, wrk1) map(tofrom : p) map(alloc : wrk2)
#endif
  {
    for (int n = 0; n < ITERS; n++) {
      gosa = 0;
#pragma omp target teams distribute parallel for collapse(3) reduction(+ : gosa)
      for (int i = 1; i < MI - 1; i++)
        for (int j = 1; j < MJ - 1; j++)
          for (int k = 1; k < MK - 1; k++) {
            float ss = (S0(p) * A(3, i, j, k) - p[i][j][k]) * bnd[i][j][k];
            gosa += (double)ss * ss;
            wrk2[i][j][k] = p[i][j][k] + 0.8f * ss;
          }
#pragma omp target teams distribute parallel for collapse(3)
      for (int i = 1; i < MI - 1; i++)
        for (int j = 1; j < MJ - 1; j++)
          for (int k = 1; k < MK - 1; k++)
            p[i][j][k] = wrk2[i][j][k];
    }
  }
  double sp = 0, sps = 0;
  for (int i = 0; i < MI; i++)
    for (int j = 0; j < MJ; j++)
      for (int k = 0; k < MK; k++) {
        sp += p[i][j][k];
        sps += ps[i][j][k];
      }
  /* himeno.h's tolerances: fused multiply-adds move gosa, a small residual, by up to ~2e-3. */
  int ok = fabs(gosa - ref) <= 1e-2 * fabs(ref) && fabs(sp - sps) <= 1e-6 * fabs(sps);
  printf("gosa %.10e (serial %.10e), sum(p) %.10e (serial %.10e)\n", gosa, ref, sp, sps);
  printf("VERIFICATION %s\n", ok ? "SUCCESSFUL" : "FAILED");
  return !ok;
}
