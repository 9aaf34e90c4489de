// A halo exchange: each of two "ranks" (halves of one array, each with its own device copy
// through enter data of two sections) sends its edge cells to the host and receives the
// neighbour's into its halo, with `update self(u[a:1], u[b:1])` and `update device(…, …)`:
// two sections of one array in one directive (OpenACC 3.3, 2.14.4), with and without async.
// REQUIRES: libptxrt
// RUN: %ptxcc -fopenacc %s -o %t && %run %t | FileCheck %s
// CHECK: PASS
#include <stdio.h>
#define N 64
#define STEPS 20
static double u[2 * (N + 2)], ref[2 * (N + 2)], next[2 * (N + 2)];

// One Jacobi step of a rank's cells 1..N, its halo cells 0 and N+1 as they are.
static void step_host(double *r) {
  double t[N + 2];
  for (int i = 1; i <= N; i++) t[i] = 0.5 * r[i] + 0.25 * (r[i - 1] + r[i + 1]);
  for (int i = 1; i <= N; i++) r[i] = t[i];
}

int main(void) {
  const int L = 0, R = N + 2; // the two ranks' first cells (each rank: halo, N cells, halo)
  for (int i = 0; i < 2 * (N + 2); i++) u[i] = ref[i] = (i * 37) % 11;
  int bad = 0;
  #pragma acc enter data copyin(u[L:N+2], u[R:N+2]) create(next[L:N+2], next[R:N+2])
  for (int s = 0; s < STEPS; s++) {
    // Exchange: rank L's last cell → rank R's left halo, rank R's first cell → rank L's right halo.
    if (s % 2) {
      #pragma acc update self(u[L+N:1], u[R+1:1]) async(1)
      #pragma acc wait(1)
    } else {
      #pragma acc update self(u[L+N:1], u[R+1:1])
    }
    u[R] = u[L + N];
    u[L + N + 1] = u[R + 1];
    #pragma acc update device(u[R:1], u[L+N+1:1])
    ref[R] = ref[L + N];
    ref[L + N + 1] = ref[R + 1];
    for (int base = 0; base <= R; base += R) {
      #pragma acc parallel loop present(u[base:N+2], next[base:N+2])
      for (int i = base + 1; i <= base + N; i++)
        next[i] = 0.5 * u[i] + 0.25 * (u[i - 1] + u[i + 1]);
      #pragma acc parallel loop present(u[base:N+2], next[base:N+2])
      for (int i = base + 1; i <= base + N; i++) u[i] = next[i];
      step_host(ref + base);
    }
  }
  // Only the edges came back so far: the interior on the host is still the initial data.
  if (u[L + 5] != (5 * 37) % 11) bad++;
  #pragma acc exit data copyout(u[L:N+2], u[R:N+2]) delete(next[L:N+2], next[R:N+2])
  for (int i = 0; i < 2 * (N + 2); i++)
    if (u[i] != ref[i] && bad++ < 5) printf("u[%d] = %g, want %g\n", i, u[i], ref[i]);
  printf(bad ? "FAIL\n" : "PASS\n");
  return bad != 0;
}
