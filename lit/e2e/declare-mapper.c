// User-defined mappers (declare mapper): the runtime maps the components the mapper function lists
// (the struct, the array its pointer member points to) in place of the item, for target regions,
// enter/exit data and update; named mappers, a mapper whose members have mappers of their own, and
// an array section of structs mapped element by element.
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t | FileCheck %s
// CHECK: 1: 1001000.0
// CHECK-NEXT: 2: 1002000.0
// CHECK-NEXT: 3: 5000.0
// CHECK-NEXT: 4: 3675.0
// CHECK-NEXT: 5: 165.0 290.0
// CHECK-NEXT: 6: 2260.0
#include <stdio.h>
#include <stdlib.h>
typedef struct { int n; double *v; } vec_t;
#pragma omp declare mapper(vec_t s) map(s, s.v[0:s.n])
#pragma omp declare mapper(half: vec_t s) map(s, s.v[0:s.n/2])
typedef struct { vec_t a; vec_t b; double scale; } pair_t;
#pragma omp declare mapper(pair_t p) map(p, p.a, p.b)
static vec_t mk(int n, double x) { vec_t s = {n, malloc(n * sizeof(double))}; for (int i = 0; i < n; i++) s.v[i] = x + i; return s; }
static double sum(vec_t s) { double t = 0; for (int i = 0; i < s.n; i++) t += s.v[i]; return t; }
int main(void) {
  vec_t x = mk(1000, 1);
#pragma omp target teams distribute parallel for map(tofrom: x)
  for (int i = 0; i < x.n; i++) x.v[i] *= 2;
  printf("1: %.1f\n", sum(x));
#pragma omp target enter data map(to: x)
#pragma omp target teams distribute parallel for
  for (int i = 0; i < x.n; i++) x.v[i] += 1;
#pragma omp target update from(x)
  printf("2: %.1f\n", sum(x));
  for (int i = 0; i < x.n; i++) x.v[i] = 0;
#pragma omp target update to(x)
#pragma omp target teams distribute parallel for
  for (int i = 0; i < x.n; i++) x.v[i] += 5;
#pragma omp target exit data map(from: x)
  printf("3: %.1f\n", sum(x));
  vec_t h = mk(100, 0);
#pragma omp target map(mapper(half), tofrom: h)
  for (int i = 0; i < h.n / 2; i++) h.v[i] = -1;
  printf("4: %.1f\n", sum(h));
  pair_t p = {mk(10, 1), mk(20, 2), 3.0};
#pragma omp target map(tofrom: p)
  {
    for (int i = 0; i < p.a.n; i++) p.a.v[i] *= p.scale;
    for (int i = 0; i < p.b.n; i++) p.b.v[i] += p.scale;
  }
  printf("5: %.1f %.1f\n", sum(p.a), sum(p.b));
  vec_t arr[4];
  for (int k = 0; k < 4; k++) arr[k] = mk(8 + k, k);
#pragma omp target map(tofrom: arr[0:4])
  for (int k = 0; k < 4; k++) for (int i = 0; i < arr[k].n; i++) arr[k].v[i] *= 10;
  double t = 0; for (int k = 0; k < 4; k++) t += sum(arr[k]);
  printf("6: %.1f\n", t);
  return 0;
}
