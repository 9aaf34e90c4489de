// collapse(3) and collapse(4) loops in a grid-stride mapping: clang recovers each inner index
// by dividing the running remainder of the level above (j = r / K), and loop mapping makes
// those running too (passes/src/loop_mapping/running_quotient.rs, `nest`), so the loop body
// divides nothing. Every (i, j, k[, l]) must be visited once with the right indices whatever
// the grid's step is against the extents: smaller than the innermost one, between two levels'
// products, larger than the whole space; with extents of 1, bounds that do not start at zero,
// strided and negative bounds, int, long and unsigned counters.
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t | FileCheck %s
// RUN: %ptxcc -fopenmp -O2 -fptxcc-info -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=INFO
// Every division clang wrote (one per use of an index) reads a running quotient:
// INFO: collapse-deep.c:[[#@LINE+20]]:1: loop: {{.*}}its 6 divisions of the counter (collapse) are running quotients; a copy without the steps for threads that run one iteration; its indices come from a grid of its shape (x: the inner loop, y: the middle, z: the outer) when the launch has its extents{{$}}
// INFO: collapse-deep.c:[[#@LINE+36]]:1: loop: {{.*}}its 4 divisions of the counter (collapse) are running quotients; a copy without the steps for threads that run one iteration; its indices come from a grid of its shape (x: the inner loop, y: the outer) when the launch has its extents{{$}}
// INFO: collapse-deep.c:[[#@LINE+50]]:1: loop: {{.*}}its 4 divisions of the counter (collapse) are running quotients; a copy without the steps for threads that run one iteration; its indices come from a grid of its shape (x: the inner loop, y: the outer) when the launch has its extents{{$}}
// INFO: collapse-deep.c:[[#@LINE+64]]:1: loop: {{.*}}its 14 divisions of the counter (collapse) are running quotients; a copy without the steps for threads that run one iteration{{$}}
// CHECK: long 3-D: 0 wrong
// CHECK: int 3-D: 0 wrong
// CHECK: unsigned 3-D: 0 wrong
// CHECK: 4-D: 0 wrong
#include <stdio.h>

enum { MAXE = 80000 }; // the largest space below: 20 x 30 x 40 x 3
static long cell[MAXE];

static void clear(void) {
  for (int i = 0; i < MAXE; i++)
    cell[i] = -1;
}

static int long_3d(long a, long b, long c, int teams, int threads) {
  clear();
#pragma omp target teams distribute parallel for collapse(3) num_teams(teams) thread_limit(threads) map(tofrom : cell)
  for (long i = 2; i < a + 2; i++)
    for (long j = -1; j < b - 1; j++)
      for (long k = 0; k < 3 * c; k += 3)
        cell[((i - 2) * b + (j + 1)) * c + k / 3] = i * 1000000 + (j + 1) * 1000 + k;
  int wrong = 0;
  for (long i = 2; i < a + 2; i++)
    for (long j = -1; j < b - 1; j++)
      for (long k = 0; k < 3 * c; k += 3)
        wrong += cell[((i - 2) * b + (j + 1)) * c + k / 3] != i * 1000000 + (j + 1) * 1000 + k;
  for (long e = a * b * c; e < MAXE; e++)
    wrong += cell[e] != -1;
  return wrong;
}

static int int_3d(int a, int b, int c, int teams, int threads) {
  clear();
#pragma omp target teams distribute parallel for collapse(3) num_teams(teams) thread_limit(threads) map(tofrom : cell)
  for (int i = 0; i < a; i++)
    for (int j = b - 1; j >= 0; j--)
      for (int k = 0; k < c; k++)
        cell[(i * b + j) * c + k] = i * 1000000 + j * 1000 + k;
  int wrong = 0;
  for (int i = 0; i < a; i++)
    for (int j = 0; j < b; j++)
      for (int k = 0; k < c; k++)
        wrong += cell[(i * b + j) * c + k] != i * 1000000 + j * 1000 + k;
  return wrong;
}

static int unsigned_3d(unsigned a, unsigned b, unsigned c, int teams, int threads) {
  clear();
#pragma omp target teams distribute parallel for collapse(3) num_teams(teams) thread_limit(threads) map(tofrom : cell)
  for (unsigned i = 0; i < a; i++)
    for (unsigned j = 0; j < b; j++)
      for (unsigned k = 0; k < c; k++)
        cell[(i * b + j) * c + k] = i * 1000000 + j * 1000 + k;
  int wrong = 0;
  for (unsigned i = 0; i < a; i++)
    for (unsigned j = 0; j < b; j++)
      for (unsigned k = 0; k < c; k++)
        wrong += cell[(i * b + j) * c + k] != (long)(i * 1000000 + j * 1000 + k);
  return wrong;
}

static int four_d(long a, long b, long c, long d, int teams, int threads) {
  clear();
#pragma omp target teams distribute parallel for collapse(4) num_teams(teams) thread_limit(threads) map(tofrom : cell)
  for (long i = 0; i < a; i++)
    for (long j = 0; j < b; j++)
      for (long k = 0; k < c; k++)
        for (long l = 0; l < d; l++)
          cell[((i * b + j) * c + k) * d + l] = i * 1000000 + j * 10000 + k * 100 + l;
  int wrong = 0;
  for (long i = 0; i < a; i++)
    for (long j = 0; j < b; j++)
      for (long k = 0; k < c; k++)
        for (long l = 0; l < d; l++)
          wrong += cell[((i * b + j) * c + k) * d + l] != i * 1000000 + j * 10000 + k * 100 + l;
  return wrong;
}

int main(void) {
  // (extents, teams, threads): steps of 32, 96, 672, 4096 against inner extents and products
  // below, between and above them.
  static const int shapes[][3] = {{1, 1, 1}, {3, 5, 7}, {17, 1, 33}, {1, 40, 1}, {20, 30, 40}, {2, 3, 100}, {9, 11, 2}};
  static const int grids[][2] = {{1, 32}, {1, 96}, {7, 96}, {32, 128}};
  int l3 = 0, i3 = 0, u3 = 0, f4 = 0;
  for (unsigned s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
    for (unsigned g = 0; g < sizeof grids / sizeof grids[0]; g++) {
      const int *e = shapes[s], *t = grids[g];
      l3 += long_3d(e[0], e[1], e[2], t[0], t[1]);
      i3 += int_3d(e[0], e[1], e[2], t[0], t[1]);
      u3 += unsigned_3d(e[0], e[1], e[2], t[0], t[1]);
      f4 += four_d(e[0], e[1], e[2], 3, t[0], t[1]) + four_d(2, e[2], e[1], e[0], t[0], t[1]);
    }
  printf("long 3-D: %d wrong\n", l3);
  printf("int 3-D: %d wrong\n", i3);
  printf("unsigned 3-D: %d wrong\n", u3);
  printf("4-D: %d wrong\n", f4);
  return l3 + i3 + u3 + f4 != 0;
}
