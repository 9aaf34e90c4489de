// collapse(2) and collapse(3) loops recover their indices from one counter; in a cyclic
// (grid-stride) loop the divisions become running quotients, carried from thread to thread's
// next iteration. Every (i, j[, k]) must be visited once, with the right indices, for shapes
// with one row or one column, sizes that are not multiples of the grid, bounds that do not
// start at zero, negative and strided bounds, int, long and unsigned counters, grids larger
// than the iteration space, and a team-level distribute of its own.
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t | FileCheck %s
// RUN: %ptxcc -fopenmp -O2 -fptxcc-info -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=INFO
// INFO: collapse-indices.c:[[#@LINE+19]]:1: loop: 'for' iterations → threads of the whole grid, {{.*}}; its 2 divisions of the counter (collapse) are running quotients; a copy without the steps for threads that run one iteration; its indices come from a grid of its shape (x: the inner loop, y: the outer) when the launch has its extents{{$}}
// CHECK: long 2-D: 0 wrong
// CHECK: int 2-D: 0 wrong
// CHECK: unsigned 2-D: 0 wrong
// CHECK: strided 2-D: 0 wrong
// CHECK: 3-D: 0 wrong
// CHECK: parallel for in a team: 0 wrong
#include <stdio.h>

enum { MAXE = 40000 };
static long cell[MAXE];

static void clear(void) {
  for (int i = 0; i < MAXE; i++)
    cell[i] = -1;
}

static int long_2d(long rows, long cols, int teams, int threads) {
  clear();
#pragma omp target teams distribute parallel for collapse(2) num_teams(teams) thread_limit(threads) map(tofrom : cell)
  for (long i = 1; i <= rows; i++)
    for (long j = 1; j <= cols; j++)
      cell[(i - 1) * cols + (j - 1)] = i * 1000 + j;
  int wrong = 0;
  for (long i = 1; i <= rows; i++)
    for (long j = 1; j <= cols; j++)
      wrong += cell[(i - 1) * cols + (j - 1)] != i * 1000 + j;
  for (long e = rows * cols; e < MAXE; e++)
    wrong += cell[e] != -1;
  return wrong;
}

static int int_2d(int rows, int cols, int threads) {
  clear();
#pragma omp target teams distribute parallel for collapse(2) thread_limit(threads) map(tofrom : cell)
  for (int i = -3; i < rows - 3; i++)
    for (int j = 0; j < cols; j++)
      cell[(i + 3) * cols + j] = i * 1000 + j;
  int wrong = 0;
  for (int i = -3; i < rows - 3; i++)
    for (int j = 0; j < cols; j++)
      wrong += cell[(i + 3) * cols + j] != i * 1000 + j;
  return wrong;
}

static int unsigned_2d(unsigned rows, unsigned cols) {
  clear();
#pragma omp target teams distribute parallel for collapse(2) num_teams(3) thread_limit(64) map(tofrom : cell)
  for (unsigned i = 0; i < rows; i++)
    for (unsigned j = 0; j < cols; j++)
      cell[i * cols + j] = i * 1000 + j;
  int wrong = 0;
  for (unsigned i = 0; i < rows; i++)
    for (unsigned j = 0; j < cols; j++)
      wrong += cell[i * cols + j] != (long)(i * 1000 + j);
  return wrong;
}

static int strided_2d(int n) {
  clear();
#pragma omp target teams distribute parallel for collapse(2) num_teams(5) thread_limit(32) map(tofrom : cell)
  for (int i = n; i > 0; i -= 2)
    for (int j = 1; j < n; j += 3)
      cell[(n - i) / 2 * n + j] = i * 1000 + j;
  int wrong = 0, count = 0;
  for (int i = n; i > 0; i -= 2)
    for (int j = 1; j < n; j += 3, count++)
      wrong += cell[(n - i) / 2 * n + j] != i * 1000 + j;
  return wrong + (count == 0);
}

static int three_d(long a, long b, long c) {
  clear();
#pragma omp target teams distribute parallel for collapse(3) num_teams(7) thread_limit(96) map(tofrom : cell)
  for (long i = 0; i < a; i++)
    for (long j = 0; j < b; j++)
      for (long k = 0; k < c; k++)
        cell[(i * b + j) * c + k] = i * 1000000 + j * 1000 + k;
  int wrong = 0;
  for (long i = 0; i < a; i++)
    for (long j = 0; j < b; j++)
      for (long k = 0; k < c; k++)
        wrong += cell[(i * b + j) * c + k] != i * 1000000 + j * 1000 + k;
  return wrong;
}

static int in_team(int rows, int cols) {
  clear();
#pragma omp target teams num_teams(1) thread_limit(128) map(tofrom : cell)
#pragma omp parallel for collapse(2)
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++)
      cell[i * cols + j] = i * 1000 + j;
  int wrong = 0;
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++)
      wrong += cell[i * cols + j] != i * 1000 + j;
  return wrong;
}

int main(void) {
  const long shapes[][2] = {{1, 1}, {1, 300}, {300, 1}, {7, 13}, {33, 31}, {199, 200}};
  const int grids[][2] = {{1, 1}, {1, 32}, {2, 33}, {16, 128}, {300, 256}};
  int w = 0;
  for (int s = 0; s < 6; s++)
    for (int g = 0; g < 5; g++)
      w += long_2d(shapes[s][0], shapes[s][1], grids[g][0], grids[g][1]);
  printf("long 2-D: %d wrong\n", w);
  w = 0;
  for (int s = 0; s < 6; s++)
    w += int_2d((int)shapes[s][0], (int)shapes[s][1], 32 * (s + 1));
  printf("int 2-D: %d wrong\n", w);
  w = 0;
  for (int s = 0; s < 6; s++)
    w += unsigned_2d((unsigned)shapes[s][0], (unsigned)shapes[s][1]);
  printf("unsigned 2-D: %d wrong\n", w);
  printf("strided 2-D: %d wrong\n", strided_2d(5) + strided_2d(60) + strided_2d(199));
  printf("3-D: %d wrong\n", three_d(1, 1, 1) + three_d(3, 5, 7) + three_d(17, 1, 33) + three_d(20, 30, 40));
  printf("parallel for in a team: %d wrong\n", in_team(7, 13) + in_team(100, 301));
  return 0;
}
