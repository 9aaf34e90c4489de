// Static locals of device code (of a 'declare target' function, of a function a region calls, of the
// region itself) are implicitly 'declare target': the device has its own copy, initialised as
// declared, that keeps its value from one region to the next; the host's copy is separate.
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t | FileCheck %s
// CHECK: r=50 a=3 b=2 host=4 11
// CHECK: PASS
#include <stdio.h>

#pragma omp declare target
int counter(void) {
  static int calls = 0;
  return ++calls;
}
#pragma omp end declare target

int helper(int x) {
  static int tab[4] = {10, 20, 30, 40};
  tab[0]++;
  return tab[x & 3];
}

int main(void) {
  int r = 0, a = 0, b = 0;
  counter();
  counter();
  counter(); /* the host's copy: 3 */
#pragma omp target map(tofrom : r, a, b)
  {
    static int inreg = 5;
    inreg++;
    a = counter();
    b = counter();
    r = helper(0) + helper(5) + inreg; /* 11 + 20 + 6 */
  }
#pragma omp target map(tofrom : r, a)
  {
    a = counter();
    r += helper(0); /* 13 */
  }
  int h = counter(), t = helper(0);
  printf("r=%d a=%d b=%d host=%d %d\n", r, a, b, h, t);
  int ok = r == 50 && a == 3 && b == 2 && h == 4 && t == 11;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return !ok;
}
