// -fptxcc-layout=auto weighs a conversion against the launches that repay it (issue 18):
// converting an array costs a pass over it at the data region's start and one back at its
// end, which pays only when the kernels that gain run again and again inside the region. A
// region whose kernel runs once, and a region inside a loop (each trip converts again), keep
// the layout and say why; the same kernel in a loop inside the region (also a while loop,
// also under an if) gets the transposed layout. Every answer is compared with the serial one.
// RUN: %ptxcc -fopenmp -O2 -fptxcc-layout=auto -fptxcc-info %s -o %t 2>&1 | FileCheck %s --check-prefix=INFO
// RUN: %ptxcc -fopenmp -O2 -fptxcc-layout=auto -fptxcc-info %s -o %t 2>&1 | FileCheck %s --check-prefix=SCALAR
// RUN: %run %t 3 | FileCheck %s
// RUN: %run %t 1 | FileCheck %s
// INFO-DAG: auto-once.c:[[#ONCE:]]:1: layout: v[64][48] stays: no kernel that uses it runs in a loop inside the data region: converting it at the region's start and back at its end would cost more than one launch of each gains
// INFO-DAG: auto-once.c:[[#AROUND:]]:1: layout: v[64][48] stays: no kernel that uses it runs in a loop inside the data region
// INFO-DAG: auto-once.c:[[#LOOP:]]:1: layout: v[64][48] -> [48][64] (coalesced on dimension 1: 2 of 2 accesses)
// INFO-DAG: auto-once.c:[[#WHILE:]]:1: layout: v[64][48] -> [48][64] (coalesced on dimension 1: 2 of 2 accesses)
// INFO-DAG: auto-once.c:[[#KERNEL:]]:1: layout: v[64][48] stays: not at the construct: its function is called inside the data region
// SCALAR-NOT: layout: {{rows|sum}}
// CHECK: once: ok
// CHECK: around: ok
// CHECK: loop: ok
// CHECK: while: ok
// CHECK: kernel level: ok
// CHECK: PASS
#include <stdio.h>
#include <stdlib.h>

#define I 64
#define J 48
static float v[I][J];

static void once(void) {
#pragma omp target data map(tofrom : v)
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < I; i++)
      v[i][0] = v[i][0] * 2 + 1;
  }
}

static void around(int iters) {
  for (int it = 0; it < iters; it++) {
#pragma omp target data map(tofrom : v)
    {
#pragma omp target teams distribute parallel for
      for (int i = 0; i < I; i++)
        v[i][0] = v[i][0] * 2 + 1;
    }
  }
}

static void loop(int iters) {
#pragma omp target data map(tofrom : v)
  for (int it = 0; it < iters; it++) {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < I; i++)
      v[i][0] = v[i][0] * 2 + 1;
  }
}

static void while_if(int iters) {
  int it = 0;
#pragma omp target data map(tofrom : v)
  while (it < 2 * iters) {
    if (it % 2 == 0) {
#pragma omp target teams distribute parallel for
      for (int i = 0; i < I; i++)
        v[i][0] = v[i][0] * 2 + 1;
    }
    it++;
  }
}

// A compute construct that maps the array itself and scalars, in a function called inside a
// data region: v stays (its device copy would be converted at every launch and back); the
// scalars have no layout to choose and get no remark.
static double kernel_level(long rows) {
  double sum = 0;
#pragma omp target teams distribute parallel for reduction(+ : sum) map(tofrom : v, sum)
  for (long i = 0; i < rows; i++) {
    v[i][0] = v[i][0] * 2 + 1;
    sum += v[i][0];
  }
  return sum;
}

static int check(const char *what, int times) {
  int bad = 0;
  for (int i = 0; i < I; i++)
    for (int j = 0; j < J; j++) {
      float want = i + 0.25f * j;
      if (j == 0)
        for (int t = 0; t < times; t++)
          want = want * 2 + 1;
      bad += v[i][j] != want;
      v[i][j] = i + 0.25f * j;
    }
  printf("%s: %s\n", what, bad ? "WRONG" : "ok");
  return bad;
}

int main(int argc, char **argv) {
  int iters = argc > 1 ? atoi(argv[1]) : 3;
  for (int i = 0; i < I; i++)
    for (int j = 0; j < J; j++)
      v[i][j] = i + 0.25f * j;
  int bad = 0;
  once();
  bad += check("once", 1);
  around(iters);
  bad += check("around", iters);
  loop(iters);
  bad += check("loop", iters);
  while_if(iters);
  bad += check("while", iters);
  double sum = 0, want = 0;
#pragma omp target data map(tofrom : v)
  sum = kernel_level(I);
  for (int i = 0; i < I; i++)
    want += v[i][0];
  bad += sum != want;
  bad += check("kernel level", 1);
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
