// 'parallel for' in a declare target function called from target regions (the OpenMP 5.2
// examples' declare_target.5/6 pattern): the region runs on the thread that calls the function,
// an inactive parallel region of one thread, which OpenMP allows wherever it is met. Called
// from a plain target, from each team of a teams region, from every thread of a parallel loop
// (nested), with a reduction, a barrier, single, an if clause, and omp_get_num_threads() == 1
// in the region.
// RUN: %ptxcc -fopenmp -O2 %s -o %t -fptxcc-info 2>&1 | FileCheck %s --check-prefix=INFO
// RUN: %run %t | FileCheck %s
// INFO: orphaned-parallel.c:[[@LINE+18]]:1: parallel region in 'vec_mult', outside the target region: runs on the thread that calls the function (one thread; its loops run sequentially)
// INFO: orphaned-parallel.c:[[@LINE+23]]:1: parallel region in 'sum'
// CHECK: plain target: p[10] = 20, p[999] = 1998
// CHECK-NEXT: sum 499500, threads in the region 1
// CHECK-NEXT: parallel if: 2 34
// CHECK-NEXT: teams: 499500 .. 499507
// CHECK-NEXT: nested: q[0] = 0, q[99] = 4950
// CHECK-NEXT: PASS
#include <omp.h>
#include <stdio.h>

#define N 1000
#pragma omp declare target
float p[N], v1[N], v2[N];
#pragma omp end declare target

#pragma omp declare target
void vec_mult(void) {
#pragma omp parallel for
  for (int i = 0; i < N; i++)
    p[i] = v1[i] * v2[i];
}
double sum(const double *a, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++)
    s += a[i];
  return s;
}
int region_threads(void) {
  int t = -1, after = 0;
#pragma omp parallel
  {
#pragma omp single
    t = omp_get_num_threads();
#pragma omp barrier
    after = t;
  }
  return after;
}
int multiples_of_3(int n) {
  int c = 0;
#pragma omp parallel for if (n > 10) reduction(+ : c)
  for (int i = 0; i < n; i++)
    c += i % 3 == 0;
  return c;
}
#pragma omp end declare target

int main(void) {
  int ok = 1;
  for (int i = 0; i < N; i++) {
    v1[i] = i;
    v2[i] = 2;
  }
#pragma omp target update to(v1, v2)
#pragma omp target
  vec_mult();
#pragma omp target update from(p)
  printf("plain target: p[10] = %g, p[999] = %g\n", p[10], p[999]);
  for (int i = 0; i < N; i++)
    ok &= p[i] == 2.0f * i;

  double a[N], s = 0, t[8];
  int nt = 0;
  for (int i = 0; i < N; i++)
    a[i] = i;
#pragma omp target map(to : a) map(from : s, nt)
  {
    s = sum(a, N);
    nt = region_threads();
  }
  printf("sum %g, threads in the region %d\n", s, nt);
  ok &= s == 499500 && nt == 1;
  int m5 = 0, m100 = 0;
#pragma omp target map(from : m5, m100)
  {
    m5 = multiples_of_3(5);
    m100 = multiples_of_3(100);
  }
  printf("parallel if: %d %d\n", m5, m100);
  ok &= m5 == 2 && m100 == 34;

  // Each team's thread calls it.
#pragma omp target teams distribute num_teams(8) map(to : a) map(from : t)
  for (int k = 0; k < 8; k++)
    t[k] = sum(a, N) + k;
  printf("teams: %g .. %g\n", t[0], t[7]);
  for (int k = 0; k < 8; k++)
    ok &= t[k] == 499500 + k;

  // Every thread of a parallel loop runs its own (nested) region.
  double q[100];
#pragma omp target teams distribute parallel for map(to : a) map(from : q)
  for (int k = 0; k < 100; k++)
    q[k] = sum(a, k + 1);
  printf("nested: q[0] = %g, q[99] = %g\n", q[0], q[99]);
  for (int k = 0; k < 100; k++)
    ok &= q[k] == k * (k + 1) / 2;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return !ok;
}
