// What the warp tile of a collapse(2) matrix product saves, counted by ptxsim (PTXSIM_STATS): with
// 16x2 tiles a warp reads 2 sectors of a (one per row) and 4 of b (16 doubles shared by both rows)
// for each k, 6 where a warp along one row reads 1 + 8 = 9 (what nvcc's 16x16 blocks read). With an
// odd number of rows the loop keeps clang's order, and reads 9. The arrays are 256-byte aligned, so
// the counts are exact.
// REQUIRES: ptxsim
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: rm -f %t.json && env PTXSIM_STATS=json:%t.json %run %t | FileCheck %s --check-prefix=OUT
// OUT: tiled: ok
// OUT-NEXT: odd_rows: ok
// RUN: %python -c "import json, sys; ks = json.load(open(sys.argv[1]))['kernels']; [print(n, [round(k['global_load_sectors'] / (int(sys.argv[2 + i]) * 64 / 32 * 16), 3) for k in ks if n in k['name']]) for i, n in enumerate(('tiled', 'odd_rows'))]" %t.json 64 65 | FileCheck %s --check-prefix=SECTORS
// SECTORS: tiled [6.0]
// SECTORS-NEXT: odd_rows [9.0]
#include <stdio.h>
#include <stdlib.h>

enum { M = 64, K = 16 };

#define PRODUCT(name)                                                                                              \
  static void name(long n, const double *a, const double *b, double *c) {                                          \
    _Pragma("omp target teams distribute parallel for collapse(2) map(to : a[0:n * K], b[0:K * M]) map(from : c[0:n * M])") \
    for (long i = 0; i < n; i++)                                                                                   \
      for (long j = 0; j < M; j++) {                                                                               \
        double s = 0;                                                                                              \
        for (long k = 0; k < K; k++)                                                                               \
          s += a[i * K + k] * b[k * M + j];                                                                        \
        c[i * M + j] = s;                                                                                          \
      }                                                                                                            \
  }
PRODUCT(tiled)
PRODUCT(odd_rows)

static void run(const char *what, void (*f)(long, const double *, const double *, double *), long n) {
  double *a = aligned_alloc(256, 256 * ((n * K * 8 + 255) / 256)), *b = aligned_alloc(256, K * M * 8);
  double *c = aligned_alloc(256, 256 * ((n * M * 8 + 255) / 256));
  for (long x = 0; x < n * K; x++)
    a[x] = (double)(x % 5) - 2;
  for (long x = 0; x < K * M; x++)
    b[x] = (double)(x % 3) - 1;
  f(n, a, b, c);
  int ok = 1;
  for (long i = 0; i < n; i++)
    for (long j = 0; j < M; j++) {
      double s = 0;
      for (long k = 0; k < K; k++)
        s += a[i * K + k] * b[k * M + j];
      ok &= c[i * M + j] == s;
    }
  printf("%s: %s\n", what, ok ? "ok" : "FAIL");
  free(a);
  free(b);
  free(c);
}

int main(void) {
  run("tiled", tiled, 64);
  run("odd_rows", odd_rows, 65);
  return 0;
}
