// collapse(2) / collapse(3) loops take their indices from a grid of the loop's shape when the
// launch knows its extents (loop_mapping/grid_shape.rs, launch_shape.rs): x along the innermost
// loop in blocks of whole warps, y (and z) along the outer loops. Every iteration must run
// once with its own indices whatever grid the runtime picks: shaped from run-time bounds and
// from constant ones, rows of one block and of several (thread_limit), rows too ragged or a
// grid too tall for a shape (the grid-stride loop), num_teams (no shape), lastprivate (never
// shaped), omp_get_team_num below omp_get_num_teams on a shaped grid, a reduction, int,
// long and unsigned counters, non-zero and strided bounds, empty loops.
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: %run %t | FileCheck %s
// RUN: env PTXRT_DEBUG=1 %run %t 2>&1 | FileCheck %s --check-prefix=GRID
// RUN: %ptxcc -fopenmp -O2 --emit=host-ir %s -o %t.ll
// RUN: FileCheck %s --check-prefix=HOST < %t.ll
// RUN: FileCheck %s --check-prefix=NOPUSH < %t.ll
// CHECK: PASS
// The host gives each shaped kernel's launch its inner extents (launch_shape.rs): factors of
// clang's trip count, or the kernel's constant divisors (K = 120, J = 720 / 120).
// HOST-DAG: call void @__ptxrt_push_collapse_shape(ptr @.__omp_offloading_{{.*}}_fill3_l{{[0-9]+}}.region_id, i64 %{{[0-9]+}}, i64 %{{[0-9]+}})
// HOST-DAG: call void @__ptxrt_push_collapse_shape(ptr @.__omp_offloading_{{.*}}_fill2_l{{[0-9]+}}.region_id, i64 %{{[0-9]+}}, i64 0)
// HOST-DAG: call void @__ptxrt_push_collapse_shape(ptr @.__omp_offloading_{{.*}}_const3_l{{[0-9]+}}.region_id, i64 120, i64 6)
// NOPUSH-NOT: call void @__ptxrt_push_collapse_shape(ptr @.__omp_offloading_{{.*}}_last_j_l
// The grids (PTXRT_DEBUG): run-time bounds, 30 x 30 x 62 and 7 x 100.
// GRID: grid-shape.c:[[#FILL3:]]:1: {{.*}}: grid (1, 30, 30) x block 64; grid: the collapse(3) loop's shape (55800 iterations: 62 along x in blocks of 64, 30 along y, 30 along z); block: the innermost loop's 62 iterations in whole warps
// GRID: grid-shape.c:[[#FILL2:]]:1: {{.*}}: grid (1, 7) x block 128; grid: the collapse(2) loop's shape (700 iterations: rows of 100 along x in blocks of 128, 7 rows along y)
// Constant bounds: the kernel's own divisors (clang folds the trip count).
// GRID: grid-shape.c:[[#CONST3:]]:1: {{.*}}: grid (1, 6, 5) x block 128; grid: the collapse(3) loop's shape (3600 iterations: 120 along x in blocks of 128, 6 along y, 5 along z)
// A thread_limit caps the row's block: rows of 1000 in 16 blocks of 64.
// GRID: grid-shape.c:[[#LIMIT:]]:1: {{.*}}: grid (16, 3) x block 64;
// Rows of 40 would idle 24 of 64 lanes, 70000 rows pass the grid's y limit: grid-stride loops.
// GRID: grid-shape.c:[[#FILL2]]:1: {{.*}}: grid {{[0-9]+}} x block
// GRID: grid-shape.c:[[#FILL2]]:1: {{.*}}: grid {{[0-9]+}} x block
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static int failures;

static void expect(const char *what, long got, long want) {
  if (got != want) {
    printf("%s: %ld, expected %ld\n", what, got, want);
    failures++;
  }
}

static long fill3(long lo, long ni, long nj, long nk, long *a) {
  long sum = 0;
#pragma omp target teams distribute parallel for collapse(3) map(tofrom : a[0 : ni * nj * nk]) reduction(+ : sum)
  for (long i = lo; i < lo + ni; i++)
    for (long j = lo; j < lo + nj; j++)
      for (long k = lo; k < lo + nk; k++) {
        a[((i - lo) * nj + (j - lo)) * nk + (k - lo)] += i * 1000000 + j * 1000 + k;
        sum += i + 2 * j + 3 * k;
      }
  return sum;
}

static void fill2(int ni, int nj, int *a) {
#pragma omp target teams distribute parallel for collapse(2) map(tofrom : a[0 : ni * nj])
  for (int i = 0; i < ni; i++)
    for (int j = 0; j < nj; j++)
      a[i * nj + j] += i * 1000 + j + 1;
}

#define CI 5
#define CJ 6
#define CK 120
static void const3(unsigned *a) {
#pragma omp target teams distribute parallel for collapse(3) map(tofrom : a[0 : CI * CJ * CK])
  for (unsigned i = 0; i < CI; i++)
    for (unsigned j = 0; j < CJ; j++)
      for (unsigned k = 0; k < CK; k++)
        a[(i * CJ + j) * CK + k] += i * 10000 + j * 1000 + k + 1;
}

static void limited(long ni, long nj, long *a) {
#pragma omp target teams distribute parallel for collapse(2) thread_limit(64) map(tofrom : a[0 : ni * nj])
  for (long i = 0; i < ni; i++)
    for (long j = 0; j < nj; j += 1)
      a[i * nj + j] += i * 100000 + j + 1;
}

static void strided(long ni, long nj, long *a) {
#pragma omp target teams distribute parallel for collapse(2) map(tofrom : a[0 : ni * nj])
  for (long i = ni - 1; i >= 0; i--)
    for (long j = 0; j < 2 * nj; j += 2)
      a[i * nj + j / 2] += i * 100000 + j + 1;
}

static void teams(int nt, long ni, long nj, long *a) {
#pragma omp target teams distribute parallel for collapse(2) num_teams(nt) map(tofrom : a[0 : ni * nj])
  for (long i = 0; i < ni; i++)
    for (long j = 0; j < nj; j++)
      a[i * nj + j] += i * 100000 + j + 1;
}

static void team_numbers(long ni, long nj, int *team, int *count) {
#pragma omp target teams distribute parallel for collapse(2) map(tofrom : team[0 : ni * nj], count[0 : ni * nj])
  for (long i = 0; i < ni; i++)
    for (long j = 0; j < nj; j++) {
      team[i * nj + j] = omp_get_team_num();
      count[i * nj + j] = omp_get_num_teams();
    }
}

static long last_j(long ni, long nj, long *a) {
  long j, i;
#pragma omp target teams distribute parallel for collapse(2) lastprivate(i, j) map(tofrom : a[0 : ni * nj])
  for (i = 0; i < ni; i++)
    for (j = 0; j < nj; j++)
      a[i * nj + j] += 1;
  return i * 1000 + j;
}

static void check3(const char *what, long lo, long ni, long nj, long nk) {
  long n = ni * nj * nk, *a = calloc(n > 0 ? n : 1, sizeof *a);
  long sum = fill3(lo, ni, nj, nk, a), want = 0;
  for (long i = lo; i < lo + ni; i++)
    for (long j = lo; j < lo + nj; j++)
      for (long k = lo; k < lo + nk; k++) {
        long at = ((i - lo) * nj + (j - lo)) * nk + (k - lo);
        want += i + 2 * j + 3 * k;
        if (a[at] != i * 1000000 + j * 1000 + k) {
          printf("%s: a[%ld][%ld][%ld] = %ld\n", what, i, j, k, a[at]);
          failures++;
          free(a);
          return;
        }
      }
  expect(what, sum, want);
  free(a);
}

static void check2(const char *what, int ni, int nj) {
  int *a = calloc((size_t)ni * nj + 1, sizeof *a);
  fill2(ni, nj, a);
  for (int i = 0; i < ni; i++)
    for (int j = 0; j < nj; j++)
      if (a[i * nj + j] != i * 1000 + j + 1) {
        printf("%s: a[%d][%d] = %d\n", what, i, j, a[i * nj + j]);
        failures++;
        free(a);
        return;
      }
  free(a);
}

static void check_long2(const char *what, void (*f)(long, long, long *), long ni, long nj, int stride) {
  long *a = calloc(ni * nj, sizeof *a);
  f(ni, nj, a);
  for (long i = 0; i < ni; i++)
    for (long j = 0; j < nj; j++)
      if (a[i * nj + j] != i * 100000 + stride * j + 1) {
        printf("%s: a[%ld][%ld] = %ld\n", what, i, j, a[i * nj + j]);
        failures++;
        free(a);
        return;
      }
  free(a);
}

int main(void) {
  check3("fill3 30x30x62", 1, 30, 30, 62);
  check2("fill2 7x100", 7, 100);
  unsigned *c = calloc(CI * CJ * CK, sizeof *c);
  const3(c);
  for (unsigned i = 0; i < CI; i++)
    for (unsigned j = 0; j < CJ; j++)
      for (unsigned k = 0; k < CK; k++)
        expect("const3", c[(i * CJ + j) * CK + k], i * 10000 + j * 1000 + k + 1);
  free(c);
  check_long2("thread_limit", limited, 3, 1000, 1);
  check2("rows of 40", 9, 40);
  check2("70000 rows", 70000, 64);
  check3("one row", 0, 1, 1, 200);
  check3("one column", -5, 40, 3, 1);
  check3("odd", 2, 3, 17, 97);
  check3("empty", 0, 0, 5, 64);
  check3("empty inner", 0, 5, 64, 0);
  check_long2("strided", strided, 11, 77, 2);
  {
    long *a = calloc(13 * 70, sizeof *a);
    teams(3, 13, 70, a);
    for (long i = 0; i < 13 * 70; i++)
      expect("num_teams(3)", a[i], (i / 70) * 100000 + i % 70 + 1);
    free(a);
  }
  {
    long ni = 20, nj = 100;
    int *team = calloc(ni * nj, sizeof *team), *count = calloc(ni * nj, sizeof *count);
    team_numbers(ni, nj, team, count);
    int bad = 0;
    for (long i = 0; i < ni * nj; i++)
      bad += team[i] < 0 || team[i] >= count[i] || count[i] != count[0];
    expect("team numbers out of range", bad, 0);
    expect("teams of a 20 x 100 shape", count[0], 20);
    free(team);
    free(count);
  }
  {
    long *a = calloc(6 * 90, sizeof *a);
    expect("lastprivate", last_j(6, 90, a), 6 * 1000 + 90);
    for (long i = 0; i < 6 * 90; i++)
      expect("lastprivate loop", a[i], 1);
    free(a);
  }
  if (failures == 0)
    printf("PASS\n");
  return failures != 0;
}
