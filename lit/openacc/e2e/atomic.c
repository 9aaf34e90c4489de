// atomic read, write, update and capture in their forms, under contention.
// REQUIRES: libptxrt
// RUN: %ptxcc -fopenacc %s -o %t && %run %t | FileCheck %s
// CHECK: PASS
#include <stdio.h>
#define N 10000
int main(void) {
  int bad = 0;
  int hist[16] = {0};
  int counter = 0, maxv = 0, tick = 0;
  static int slot[N], got[N];
  double acc = 0;
  #pragma acc parallel loop copy(hist, counter, acc, tick) copyout(slot, got)
  for (int i = 0; i < N; i++) {
    #pragma acc atomic update
    hist[i % 16]++;
    #pragma acc atomic
    acc += 0.5;
    int mine;
    #pragma acc atomic capture
    mine = counter++;
    slot[i] = mine;
    int seen;
    #pragma acc atomic capture
    { tick += 2; seen = tick; }
    #pragma acc atomic read
    got[i] = hist[0];
    if (seen < 2) got[i] = -1;
  }
  for (int k = 0; k < 16; k++) if (hist[k] != N / 16 + (k < N % 16)) { printf("hist %d %d\n", k, hist[k]); bad++; }
  if (counter != N || acc != N * 0.5 || tick != 2 * N) { printf("counter %d acc %f tick %d\n", counter, acc, tick); bad++; }
  // Every captured value appears once.
  static char seen_v[N];
  for (int i = 0; i < N; i++) {
    if (slot[i] < 0 || slot[i] >= N || seen_v[slot[i]]) { printf("capture %d\n", i); bad++; break; }
    seen_v[slot[i]] = 1;
    if (got[i] < 0) { printf("capture block %d\n", i); bad++; break; }
  }
  #pragma acc serial copy(maxv)
  {
    #pragma acc atomic write
    maxv = 42;
  }
  if (maxv != 42) { printf("write %d\n", maxv); bad++; }
  printf("%s %d\n", bad ? "FAIL" : "PASS", bad);
  return bad != 0;
}
