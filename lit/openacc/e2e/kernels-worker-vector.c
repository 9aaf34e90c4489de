// kernels regions honour worker and vector levels as parallel regions do: a vector loop under
// a worker level runs on the lanes of the worker's warp. Vector reductions stored by the
// worker, three levels on three loops with a worker reduction, a vector length below 32 with
// trip counts that are not multiples of it, and num_workers sizing the block; every result is
// compared with the serial loop nest.
// REQUIRES: libptxrt
// RUN: %ptxcc -fopenacc -O2 %s -o %t -fptxcc-info 2>&1 | FileCheck %s --check-prefix=INFO
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %run %t | FileCheck %s
// INFO-DAG: kernels-worker-vector.c:[[@LINE+29]]: loop parallelized: gang(blockIdx.x) worker(threadIdx.y: one warp each)
// INFO-DAG: kernels-worker-vector.c:[[@LINE+31]]: loop parallelized: vector(threadIdx.x: lanes of the worker's warp, 32)
// INFO-DAG: shuffles across the 32 vector lanes of the worker's warp; every lane receives the worker's value
// INFO-DAG: one value per worker (warp), combined through shared memory
// INFO-DAG: vector(threadIdx.x: lanes of the worker's warp, 12)
// CHECK: row sums: ok
// CHECK: three levels: ok
// CHECK: short vectors: ok
#include <stdio.h>
#define NI 41
#define NJ 13
#define NK 77

static float a[NI][NJ][NK];

static int report(const char *what, int bad) {
  printf("%s: %s\n", what, bad ? "WRONG" : "ok");
  return bad;
}

int main(void) {
  int failed = 0;
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++)
      for (int k = 0; k < NK; k++) a[i][j][k] = (float)((i * 5 + j * 3 + k) % 13) - 6.0f;

  // A: kernels loop gang worker, a vector reduction per row stored by the worker.
  static float rows[NI * NJ];
#pragma acc kernels loop gang worker num_workers(4) copyin(a) copyout(rows)
  for (int ij = 0; ij < NI * NJ; ij++) {
    float s = 0;
#pragma acc loop vector reduction(+:s)
    for (int k = 0; k < NK; k++) s += a[ij / NJ][ij % NJ][k];
    rows[ij] = s;
  }
  int bad = 0;
  for (int ij = 0; ij < NI * NJ; ij++) {
    float s = 0;
    for (int k = 0; k < NK; k++) s += a[ij / NJ][ij % NJ][k];
    bad += rows[ij] != s;
  }
  failed |= report("row sums", bad);

  // B: gang / worker / vector on three loops of a kernels region, reductions at the worker
  // and vector levels.
  static double tot[NI];
#pragma acc kernels copyin(a) copyout(tot)
  {
#pragma acc loop gang
    for (int i = 0; i < NI; i++) {
      double rowtot = 0;
#pragma acc loop worker reduction(+:rowtot)
      for (int j = 0; j < NJ; j++) {
        double s = 0;
#pragma acc loop vector reduction(+:s)
        for (int k = 0; k < NK; k++) s += a[i][j][k] * (k % 3);
        rowtot += s * (j + 1);
      }
      tot[i] = rowtot;
    }
  }
  bad = 0;
  for (int i = 0; i < NI; i++) {
    double r = 0;
    for (int j = 0; j < NJ; j++) {
      double s = 0;
      for (int k = 0; k < NK; k++) s += a[i][j][k] * (k % 3);
      r += s * (j + 1);
    }
    bad += tot[i] != r;
  }
  failed |= report("three levels", bad);

  // C: vector_length 12 (20 lanes of each warp idle), max at the vector level, 3 workers.
  static float mx[NI][NJ];
#pragma acc kernels num_workers(3) vector_length(12) copyin(a) copyout(mx)
  {
#pragma acc loop gang worker
    for (int ij = 0; ij < NI * NJ; ij++) {
      float m = -1e30f;
#pragma acc loop vector reduction(max:m)
      for (int k = 0; k < NK; k++) m = a[ij / NJ][ij % NJ][k] * (k + 1) > m ? a[ij / NJ][ij % NJ][k] * (k + 1) : m;
      mx[ij / NJ][ij % NJ] = m;
    }
  }
  bad = 0;
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++) {
      float m = -1e30f;
      for (int k = 0; k < NK; k++) m = a[i][j][k] * (k + 1) > m ? a[i][j][k] * (k + 1) : m;
      bad += mx[i][j] != m;
    }
  failed |= report("short vectors", bad);
  return failed;
}
