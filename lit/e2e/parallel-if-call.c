// A parallel region serialised by its if clause (c == 0) runs as the team's code: its stores, its
// atomic update and its call of a function that writes memory are each made once, by thread 0,
// as a single thread would; with c == 1 the same loop runs on the block's threads. Both give the
// serial answer.
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: %run %t | FileCheck %s
// CHECK: 300 300 102 102
#include <stdio.h>
#pragma omp declare target
void bump(int *p);
#pragma omp end declare target
void bump(int *p) { *p += 1; }

void f(int n, int *y, int c) {
#pragma omp target parallel for if(parallel: c) map(tofrom: y[0:n])
  for (int i = 0; i < n; i++) {
    y[i] += 1;
#pragma omp atomic
    y[n - 1] += 1;
    bump(&y[i]);
  }
}

int main(void) {
  int y[100] = {0}, z[100] = {0};
  f(100, y, 0);
  f(100, z, 1);
  long s = 0, t = 0;
  for (int i = 0; i < 100; i++) {
    s += y[i];
    t += z[i];
  }
  printf("%ld %ld %d %d\n", s, t, y[99], z[99]);
  return 0;
}
