// 'declare target link' (OpenMP 5.2 §7.8.1): the device has no copy of a link variable until a
// map clause maps it; device code reaches the mapped copy through the reference pointer the
// runtime sets at the map. Named in a target region and in declare target functions, mapped by
// the region itself or by an enclosing target data region, moved by target update; the host's
// copy changes only when the data comes back.
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: %run %t | FileCheck %s
// CHECK: region: g[5] = 10, host g[3] = 7
// CHECK-NEXT: function: r = 15
// CHECK-NEXT: data region: host before update 1, after update 300, after exit 301
// CHECK-NEXT: two variables: 4950 9900
// CHECK-NEXT: PASS
#include <stdio.h>

#define N 100
int g[N];
double x[N], y[N];
int z[N];
#pragma omp declare target link(g) link(x, y)
#pragma omp declare target link(z)

#pragma omp declare target
int get(int i) { return g[i]; }
void scale(int k) {
  for (int i = 0; i < N; i++)
    z[i] *= k;
}
double dot(void) {
  double s = 0;
  for (int i = 0; i < N; i++)
    s += x[i] * y[i];
  return s;
}
#pragma omp end declare target

int main(void) {
  int ok = 1;
  for (int i = 0; i < N; i++)
    g[i] = i;
  // The region names g: its map makes the device's reference point at the mapped copy.
#pragma omp target map(tofrom : g)
  {
    for (int i = 0; i < N; i++)
      g[i] *= 2;
    g[3] = 7;
  }
  printf("region: g[5] = %d, host g[3] = %d\n", g[5], g[3]);
  ok &= g[5] == 10 && g[3] == 7 && g[99] == 198;

  // A declare target function reads it; the region maps it.
  int r = 0;
#pragma omp target map(to : g) map(from : r)
  r = get(5) + 5;
  printf("function: r = %d\n", r);
  ok &= r == 15;

  // Mapped by a data region: kernels inside reach the copy without naming g in a clause.
  for (int i = 0; i < N; i++)
    z[i] = 1;
#pragma omp target data map(tofrom : z)
  {
#pragma omp target
    scale(3);
#pragma omp target
    scale(100);
    int before = z[0];
#pragma omp target update from(z)
    int after = z[0];
#pragma omp target
    z[0] += 1;
    printf("data region: host before update %d, after update %d, ", before, after);
    ok &= before == 1 && after == 300;
  }
  printf("after exit %d\n", z[0]);
  ok &= z[0] == 301 && z[1] == 300;

  // Two link variables of one directive, a function returning through them.
  for (int i = 0; i < N; i++) {
    x[i] = i;
    y[i] = 1;
  }
  double s1 = 0, s2 = 0;
#pragma omp target map(to : x, y) map(from : s1)
  s1 = dot();
  for (int i = 0; i < N; i++)
    y[i] = 2;
#pragma omp target map(to : x, y) map(from : s2)
  s2 = dot();
  printf("two variables: %g %g\n", s1, s2);
  ok &= s1 == 4950 && s2 == 9900;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return !ok;
}
