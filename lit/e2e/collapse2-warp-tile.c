// collapse(2) matrix products whose warps take 16x2 tiles of (j, i) (loop_mapping/warp_tile.rs):
// the extents where the tile fits (the inner extent a multiple of 16, an even number of rows) and
// those where the loop keeps clang's order (an odd number of rows, an inner extent of 24), with
// signed and unsigned counters; every element is visited exactly once and equals the host's product.
// RUN: %ptxcc -fopenmp -O2 -fptxcc-info %s -o %t 2>&1 | FileCheck %s --check-prefix=INFO
// INFO: collapse2-warp-tile.c:[[@LINE+28]]:1: loop: 'for' iterations {{.*}}; a warp takes 16x2 (j x i) iterations when the extents allow (22 sectors a warp for its accesses, 25 along one row)
// INFO: collapse2-warp-tile.c:[[@LINE+39]]:1: loop: 'for' iterations {{.*}}; a warp takes 16x2 (j x i)
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %run %t | FileCheck %s
// CHECK: 64x48: ok
// CHECK-NEXT: 33x32: ok
// CHECK-NEXT: 40x24: ok
// CHECK-NEXT: 2x16: ok
// CHECK-NEXT: unsigned 32x64: ok
// CHECK-NEXT: unsigned 7x48: ok
#include <stdio.h>
#include <stdlib.h>

enum { K = 19 };

static int check(const char *what, long n, long m, const double *a, const double *b, const double *c, const int *seen) {
  int ok = 1;
  for (long i = 0; i < n; i++)
    for (long j = 0; j < m; j++) {
      double s = 0;
      for (long k = 0; k < K; k++)
        s += a[i * K + k] * b[k * m + j];
      ok &= c[i * m + j] == s && seen[i * m + j] == 1;
    }
  printf("%s%ldx%ld: %s\n", what, n, m, ok ? "ok" : "FAIL");
  return ok;
}

static void product(long n, long m, const double *a, const double *b, double *c, int *seen) {
#pragma omp target teams distribute parallel for collapse(2) map(to : a[0:n * K], b[0:K * m]) map(from : c[0:n * m]) map(tofrom : seen[0:n * m])
  for (long i = 0; i < n; i++)
    for (long j = 0; j < m; j++) {
      double s = 0;
      for (long k = 0; k < K; k++)
        s += a[i * K + k] * b[k * m + j];
      c[i * m + j] = s;
      seen[i * m + j] += 1;
    }
}

static void product_unsigned(unsigned n, unsigned m, const double *a, const double *b, double *c, int *seen) {
#pragma omp target teams distribute parallel for collapse(2) map(to : a[0:n * K], b[0:K * m]) map(from : c[0:n * m]) map(tofrom : seen[0:n * m])
  for (unsigned i = 0; i < n; i++)
    for (unsigned j = 0; j < m; j++) {
      double s = 0;
      for (unsigned k = 0; k < K; k++)
        s += a[i * K + k] * b[k * m + j];
      c[i * m + j] = s;
      seen[i * m + j] += 1;
    }
}

static int run(int unsigned_counters, long n, long m) {
  double *a = malloc(n * K * sizeof(double)), *b = malloc(K * m * sizeof(double)), *c = malloc(n * m * sizeof(double));
  int *seen = calloc(n * m, sizeof(int));
  for (long x = 0; x < n * K; x++)
    a[x] = (double)(x % 9) - 4;
  for (long x = 0; x < K * m; x++)
    b[x] = (double)(x % 7) - 3;
  if (unsigned_counters)
    product_unsigned((unsigned)n, (unsigned)m, a, b, c, seen);
  else
    product(n, m, a, b, c, seen);
  int ok = check(unsigned_counters ? "unsigned " : "", n, m, a, b, c, seen);
  free(a);
  free(b);
  free(c);
  free(seen);
  return ok;
}

int main(void) {
  int ok = run(0, 64, 48) & run(0, 33, 32) & run(0, 40, 24) & run(0, 2, 16);
  ok &= run(1, 32, 64) & run(1, 7, 48);
  return ok ? 0 : 1;
}
