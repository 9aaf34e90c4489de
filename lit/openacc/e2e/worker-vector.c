// Vector loops inside worker loops run on the lanes of the worker's warp (worker = threadIdx.y,
// vector = threadIdx.x of a 32-wide block): reductions at the vector and worker levels, worker
// arrays that one vector loop fills and another reads (shared memory per worker), worker code
// that calls a math function, vector_length below 32 with trip counts that are not multiples of
// it, and worker code with an atomic update (then each worker runs its vector loop alone).
// Every result is compared with the serial loop nest.
// REQUIRES: libptxrt
// RUN: %ptxcc -fopenacc -O2 %s -o %t -fptxcc-info 2>&1 | FileCheck %s --check-prefix=INFO
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %run %t | FileCheck %s
// INFO-DAG: worker-vector.c:[[@LINE+36]]: loop parallelized: worker(threadIdx.y: one warp each)
// INFO-DAG: worker-vector.c:[[@LINE+38]]: loop parallelized: vector(threadIdx.x: lanes of the worker's warp, 32)
// INFO-DAG: shuffles across the 32 vector lanes of the worker's warp; every lane receives the worker's value
// INFO-DAG: vector(threadIdx.x: lanes of the worker's warp, 8)
// INFO-DAG: one value per worker (warp), combined through shared memory
// INFO-DAG: nested parallel region (vector loop) runs sequentially in each thread of its parallel region (worker): the worker's code has an atomic update
// CHECK: row sums: ok
// CHECK: worker arrays: ok
// CHECK: worker totals: ok
// CHECK: max/min: ok
// CHECK: scaled: ok
// CHECK: atomic counts: ok
#include <math.h>
#include <stdio.h>
#define NI 37
#define NJ 13
#define NK 100

static float a[NI][NJ][NK];

static int report(const char *what, int bad) {
  printf("%s: %s\n", what, bad ? "WRONG" : "ok");
  return bad;
}

int main(void) {
  int failed = 0;
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++)
      for (int k = 0; k < NK; k++) a[i][j][k] = (float)((i * 7 + j * 3 + k) % 11) - 5.0f;

  // A: one vector reduction per worker iteration, stored by the worker.
  static float rows[NI][NJ];
#pragma acc parallel loop gang num_workers(4) vector_length(32) copyin(a) copyout(rows)
  for (int i = 0; i < NI; i++) {
#pragma acc loop worker
    for (int j = 0; j < NJ; j++) {
      float s = 0;
#pragma acc loop vector reduction(+:s)
      for (int k = 0; k < NK; k++) s += a[i][j][k];
      rows[i][j] = s;
    }
  }
  int bad = 0;
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++) {
      float s = 0;
      for (int k = 0; k < NK; k++) s += a[i][j][k];
      bad += rows[i][j] != s;
    }
  failed |= report("row sums", bad);

  // B: a worker array filled by one vector loop and read crosswise by the next; 8 lanes, 3 workers.
  static float out[NI][NJ][8];
#pragma acc parallel loop gang num_workers(3) vector_length(8) copyin(a) copyout(out)
  for (int i = 0; i < NI; i++) {
#pragma acc loop worker
    for (int j = 0; j < NJ; j++) {
      float t[8];
#pragma acc loop vector
      for (int k = 0; k < 8; k++) t[k] = a[i][j][k] * 2.0f;
#pragma acc loop vector
      for (int k = 0; k < 8; k++) out[i][j][k] = t[7 - k] + t[k];
    }
  }
  bad = 0;
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++)
      for (int k = 0; k < 8; k++) bad += out[i][j][k] != a[i][j][7 - k] * 2.0f + a[i][j][k] * 2.0f;
  failed |= report("worker arrays", bad);

  // C: a worker-level reduction over vector-level ones, and a gang-level total.
  static double tot[NI];
  double all = 0;
#pragma acc parallel loop gang num_workers(2) reduction(+:all) copyin(a) copyout(tot)
  for (int i = 0; i < NI; i++) {
    double rowtot = 0;
#pragma acc loop worker reduction(+:rowtot)
    for (int j = 0; j < NJ; j++) {
      double s = 0;
#pragma acc loop vector reduction(+:s)
      for (int k = 0; k < NK; k++) s += a[i][j][k] * (j + 1);
      rowtot += s;
    }
    tot[i] = rowtot;
    all += rowtot;
  }
  bad = 0;
  double want_all = 0;
  for (int i = 0; i < NI; i++) {
    double r = 0;
    for (int j = 0; j < NJ; j++)
      for (int k = 0; k < NK; k++) r += a[i][j][k] * (j + 1);
    bad += tot[i] != r;
    want_all += r;
  }
  bad += all != want_all;
  failed |= report("worker totals", bad);

  // D: max and min at the vector level, int and long, 5 of 32 lanes past the trip count.
  static int mx[NI][NJ];
  static long mn[NI][NJ];
#pragma acc parallel loop gang copyin(a) copyout(mx, mn)
  for (int i = 0; i < NI; i++) {
#pragma acc loop worker
    for (int j = 0; j < NJ; j++) {
      int m = -1000;
      long n = 1000;
#pragma acc loop vector reduction(max:m) reduction(min:n)
      for (int k = 0; k < 27; k++) {
        int v = (int)a[i][j][k] * (k + 1);
        m = v > m ? v : m;
        n = (long)v < n ? (long)v : n;
      }
      mx[i][j] = m;
      mn[i][j] = n;
    }
  }
  bad = 0;
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++) {
      int m = -1000;
      long n = 1000;
      for (int k = 0; k < 27; k++) {
        int v = (int)a[i][j][k] * (k + 1);
        m = v > m ? v : m;
        n = (long)v < n ? (long)v : n;
      }
      bad += mx[i][j] != m || mn[i][j] != n;
    }
  failed |= report("max/min", bad);

  // E: the worker computes a factor with a math function; its vector loop uses it.
  static float sc[NI][NJ][NK];
#pragma acc parallel loop gang num_workers(4) copyin(a) copyout(sc)
  for (int i = 0; i < NI; i++) {
#pragma acc loop worker
    for (int j = 0; j < NJ; j++) {
      float f = sqrtf((float)(j + 1));
#pragma acc loop vector
      for (int k = 0; k < NK; k++) sc[i][j][k] = a[i][j][k] * f;
    }
  }
  bad = 0;
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++)
      for (int k = 0; k < NK; k++) bad += fabsf(sc[i][j][k] - a[i][j][k] * sqrtf((float)(j + 1))) > 1e-5f;
  failed |= report("scaled", bad);

  // G: an atomic update in the worker code: each worker runs its vector loop on its own.
  static int cnt[NI];
  static float rows2[NI][NJ];
  for (int i = 0; i < NI; i++) cnt[i] = 0;
#pragma acc parallel loop gang num_workers(4) copyin(a) copy(cnt) copyout(rows2)
  for (int i = 0; i < NI; i++) {
#pragma acc loop worker
    for (int j = 0; j < NJ; j++) {
#pragma acc atomic update
      cnt[i]++;
      float s = 0;
#pragma acc loop vector reduction(+:s)
      for (int k = 0; k < NK; k++) s += a[i][j][k];
      rows2[i][j] = s;
    }
  }
  bad = 0;
  for (int i = 0; i < NI; i++) {
    bad += cnt[i] != NJ;
    for (int j = 0; j < NJ; j++) bad += rows2[i][j] != rows[i][j];
  }
  failed |= report("atomic counts", bad);
  return failed;
}
