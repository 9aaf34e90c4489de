// The OpenMP allocator API in target regions with the predefined allocators (OpenMP 5.2 §6.2,
// §18.13): omp_alloc/omp_free, omp_calloc (zeroed), omp_aligned_alloc, the allocate directive
// on a region's local and the allocate clause with uses_allocators of a predefined allocator.
// Every predefined allocator takes device heap memory (malloc's), which OpenMP allows.
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: %run %t | FileCheck %s
// CHECK: omp_alloc: 45
// CHECK-NEXT: per thread: 0 1 2 ... 63
// CHECK-NEXT: calloc zeroes: 0, aligned 16: 1
// CHECK-NEXT: allocate directive: 55
// CHECK-NEXT: allocate clause: 3 66
// CHECK-NEXT: teams: 10 13
// CHECK-NEXT: PASS
#include <omp.h>
#include <stdint.h>
#include <stdio.h>

int main(void) {
  int ok = 1, r = 0;
#pragma omp target map(tofrom : r)
  {
    int *p = (int *)omp_alloc(10 * sizeof(int), omp_default_mem_alloc);
    for (int i = 0; i < 10; i++)
      p[i] = i;
    for (int i = 0; i < 10; i++)
      r += p[i];
    omp_free(p, omp_default_mem_alloc);
  }
  printf("omp_alloc: %d\n", r);
  ok &= r == 45;

  // Each thread of a parallel loop has its own allocation.
  int t[64];
#pragma omp target teams distribute parallel for map(from : t) uses_allocators(omp_thread_mem_alloc)
  for (int i = 0; i < 64; i++) {
    int *mine = (int *)omp_alloc(sizeof(int), omp_thread_mem_alloc);
    *mine = i;
    t[i] = *mine;
    omp_free(mine, omp_thread_mem_alloc);
  }
  printf("per thread: %d %d %d ... %d\n", t[0], t[1], t[2], t[63]);
  for (int i = 0; i < 64; i++)
    ok &= t[i] == i;

  int nonzero = -1, aligned = 0;
#pragma omp target map(from : nonzero, aligned)
  {
    double *z = (double *)omp_calloc(100, sizeof(double), omp_large_cap_mem_alloc);
    nonzero = 0;
    for (int i = 0; i < 100; i++)
      nonzero += z[i] != 0.0;
    omp_free(z, omp_large_cap_mem_alloc);
    char *a = (char *)omp_aligned_alloc(16, 40, omp_null_allocator);
    aligned = ((uintptr_t)a % 16) == 0;
    omp_free(a, omp_null_allocator);
  }
  printf("calloc zeroes: %d, aligned 16: %d\n", nonzero, aligned);
  ok &= nonzero == 0 && aligned == 1;

  int s = 0;
#pragma omp target map(tofrom : s) uses_allocators(omp_low_lat_mem_alloc)
  {
    int buf[10];
#pragma omp allocate(buf) allocator(omp_low_lat_mem_alloc)
    for (int i = 0; i < 10; i++)
      buf[i] = i + 1;
    for (int i = 0; i < 10; i++)
      s += buf[i];
  }
  printf("allocate directive: %d\n", s);
  ok &= s == 55;

  int x = 3, u[64];
#pragma omp target parallel firstprivate(x) allocate(omp_pteam_mem_alloc : x) uses_allocators(omp_pteam_mem_alloc) map(from : u) num_threads(64)
  u[omp_get_thread_num()] = x + omp_get_thread_num();
  printf("allocate clause: %d %d\n", u[0], u[63]);
  ok &= u[0] == 3 && u[63] == 66;

  // The code of each team (run by all its threads for the team's one initial thread).
  int v[4] = {0};
#pragma omp target teams num_teams(4) map(tofrom : v)
  {
    int *w = (int *)omp_alloc(sizeof(int), omp_cgroup_mem_alloc);
    *w = 10 + omp_get_team_num();
    v[omp_get_team_num()] = *w;
    omp_free(w, omp_cgroup_mem_alloc);
  }
  printf("teams: %d %d\n", v[0], v[3]);
  ok &= v[0] == 10 && v[3] == 13;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return !ok;
}
