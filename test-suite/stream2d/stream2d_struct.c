/*
 * The layout study of issue 18, STREAM on arrays of structs: three arrays a, b, c of N structs
 * of four doubles (named fields x, y, z, w), allocated with malloc and mapped as pointer
 * sections a[0:n] in one data region, one thread per struct (the lanes walk the struct index:
 * in the AoS form they read one field 32 bytes apart). One build per form:
 *   (default)      AoS: struct elem a[n]
 *   -DTRANS        the same inside #pragma ptxcc trans soa(a[0:n]) (and b, c)
 *   -fptxcc-layout=auto on the default form: the compiler's choice (soa, from the accesses)
 *   -DHAND_SOA     hand-written SoA: field f of struct i at a[f*n + i]
 *   -DCALLED       the AoS form with each kernel in a function the data region calls (the
 *                  structure of most programs; -fptxcc-layout=auto and -DTRANS reach the
 *                  kernels through layout versions)
 * Each build runs copy, scale, add and triad ITERS times on the device and the same serially,
 * and prints VERIFICATION SUCCESSFUL when every field of every struct agrees. Run by
 * test-suite/harness/layout_study.py on ptxsim's counters.
 */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 65536
#endif
#ifndef ITERS
#define ITERS 2
#endif
#define Q 3.0

typedef struct {
  double x, y, z, w;
} elem;

static void init(elem *a, elem *b, elem *c, long n) {
  for (long i = 0; i < n; i++) {
    a[i] = (elem){1.0 + i % 7, 2.0 + i % 5, 3.0 + i % 3, 4.0};
    b[i] = (elem){2.0, 1.0 + i % 11, 0.5, 1.0 + i % 2};
    c[i] = (elem){0.0, 0.0, 0.0, 0.0};
  }
}

#define FIELDS(OP) OP(x) OP(y) OP(z) OP(w)

static void serial(elem *a, elem *b, elem *c, long n) {
  for (int t = 0; t < ITERS; t++) {
#define COPY(f) c[i].f = a[i].f;
#define SCALE(f) b[i].f = Q * c[i].f;
#define ADD(f) c[i].f = a[i].f + b[i].f;
#define TRIAD(f) a[i].f = b[i].f + Q * c[i].f;
    for (long i = 0; i < n; i++) { FIELDS(COPY) }
    for (long i = 0; i < n; i++) { FIELDS(SCALE) }
    for (long i = 0; i < n; i++) { FIELDS(ADD) }
    for (long i = 0; i < n; i++) { FIELDS(TRIAD) }
  }
}

#ifdef HAND_SOA
/* Field f of struct i at v[f*n + i]. */
static int same(const double *v, const elem *s, long n) {
  for (long i = 0; i < n; i++)
    if (v[i] != s[i].x || v[n + i] != s[i].y || v[2 * n + i] != s[i].z || v[3 * n + i] != s[i].w)
      return 0;
  return 1;
}

int main(void) {
  long n = N;
  elem *ra = malloc(n * sizeof(elem)), *rb = malloc(n * sizeof(elem)), *rc = malloc(n * sizeof(elem));
  double *a = malloc(4 * n * sizeof(double)), *b = malloc(4 * n * sizeof(double)),
         *c = malloc(4 * n * sizeof(double));
  init(ra, rb, rc, n);
  for (long i = 0; i < n; i++) {
    const elem *s[3] = {&ra[i], &rb[i], &rc[i]};
    double *d[3] = {a, b, c};
    for (int k = 0; k < 3; k++) {
      d[k][i] = s[k]->x;
      d[k][n + i] = s[k]->y;
      d[k][2 * n + i] = s[k]->z;
      d[k][3 * n + i] = s[k]->w;
    }
  }
#pragma omp target data map(tofrom : a[0:4 * n], b[0:4 * n], c[0:4 * n])
  for (int t = 0; t < ITERS; t++) {
#pragma omp target teams distribute parallel for
    for (long i = 0; i < n; i++)
      for (int f = 0; f < 4; f++)
        c[f * n + i] = a[f * n + i];
#pragma omp target teams distribute parallel for
    for (long i = 0; i < n; i++)
      for (int f = 0; f < 4; f++)
        b[f * n + i] = Q * c[f * n + i];
#pragma omp target teams distribute parallel for
    for (long i = 0; i < n; i++)
      for (int f = 0; f < 4; f++)
        c[f * n + i] = a[f * n + i] + b[f * n + i];
#pragma omp target teams distribute parallel for
    for (long i = 0; i < n; i++)
      for (int f = 0; f < 4; f++)
        a[f * n + i] = b[f * n + i] + Q * c[f * n + i];
  }
  serial(ra, rb, rc, n);
  int ok = same(a, ra, n) && same(b, rb, n) && same(c, rc, n);
  printf("stream2d_struct hand-soa n=%ld: VERIFICATION %s\n", n, ok ? "SUCCESSFUL" : "FAILED");
  return !ok;
}
#else
static int same(const elem *v, const elem *s, long n) {
  for (long i = 0; i < n; i++)
    if (v[i].x != s[i].x || v[i].y != s[i].y || v[i].z != s[i].z || v[i].w != s[i].w)
      return 0;
  return 1;
}

#ifdef CALLED
static void k_copy(elem *restrict a, elem *restrict b, elem *restrict c, long n) {
#pragma omp target teams distribute parallel for
  for (long i = 0; i < n; i++) { FIELDS(COPY) }
}
static void k_scale(elem *restrict a, elem *restrict b, elem *restrict c, long n) {
#pragma omp target teams distribute parallel for
  for (long i = 0; i < n; i++) { FIELDS(SCALE) }
}
static void k_add(elem *restrict a, elem *restrict b, elem *restrict c, long n) {
#pragma omp target teams distribute parallel for
  for (long i = 0; i < n; i++) { FIELDS(ADD) }
}
static void k_triad(elem *restrict a, elem *restrict b, elem *restrict c, long n) {
#pragma omp target teams distribute parallel for
  for (long i = 0; i < n; i++) { FIELDS(TRIAD) }
}
#endif

int main(void) {
  long n = N;
  elem *a = malloc(n * sizeof(elem)), *b = malloc(n * sizeof(elem)), *c = malloc(n * sizeof(elem));
  elem *ra = malloc(n * sizeof(elem)), *rb = malloc(n * sizeof(elem)), *rc = malloc(n * sizeof(elem));
  init(a, b, c, n);
  init(ra, rb, rc, n);
#ifdef TRANS
#pragma ptxcc trans soa(a[0:n])
#pragma ptxcc trans soa(b[0:n])
#pragma ptxcc trans soa(c[0:n])
#endif
#pragma omp target data map(tofrom : a[0:n], b[0:n], c[0:n])
  for (int t = 0; t < ITERS; t++) {
#ifdef CALLED
    k_copy(a, b, c, n);
    k_scale(a, b, c, n);
    k_add(a, b, c, n);
    k_triad(a, b, c, n);
#else
#pragma omp target teams distribute parallel for
    for (long i = 0; i < n; i++) { FIELDS(COPY) }
#pragma omp target teams distribute parallel for
    for (long i = 0; i < n; i++) { FIELDS(SCALE) }
#pragma omp target teams distribute parallel for
    for (long i = 0; i < n; i++) { FIELDS(ADD) }
#pragma omp target teams distribute parallel for
    for (long i = 0; i < n; i++) { FIELDS(TRIAD) }
#endif
  }
  serial(ra, rb, rc, n);
  int ok = same(a, ra, n) && same(b, rb, n) && same(c, rc, n);
  printf("stream2d_struct aos n=%ld: VERIFICATION %s\n", n, ok ? "SUCCESSFUL" : "FAILED");
  return !ok;
}
#endif
