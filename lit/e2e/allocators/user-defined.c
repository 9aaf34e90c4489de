// User-defined allocators in target regions (OpenMP 5.2 §6.2 memory allocators, §18.13.2
// omp_init_allocator, §6.8 uses_allocators): the alignment, pool_size and fallback traits
// (null_fb, default_mem_fb, allocator_fb with fb_data), omp_aligned_alloc beyond the heap's own
// 16 bytes, omp_realloc, omp_free with omp_null_allocator, a pool shared by the threads of a
// team, and the null allocator for a trait value OpenMP does not allow.
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: %run %t | FileCheck %s
// RUN: %ptxcc -fopenmp -O0 %s -o %t0
// RUN: %run %t0 | FileCheck %s
// CHECK: aligned: 1 1 1
// CHECK-NEXT: null_fb: 1 0 1
// CHECK-NEXT: default_mem_fb: 1 1
// CHECK-NEXT: allocator_fb: 1 1
// CHECK-NEXT: realloc: 1 1
// CHECK-NEXT: uses_allocators: 1 496
// CHECK-NEXT: threads: 64 0
// CHECK-NEXT: bad trait: 1
// CHECK-NEXT: PASS
#include <omp.h>
#include <stdint.h>
#include <stdio.h>

static int aligned_to(void *p, uintptr_t a) { return p != NULL && (uintptr_t)p % a == 0; }

int main(void) {
  int ok = 1;

  int r[3] = {0, 0, 0};
#pragma omp target map(from : r)
  {
    omp_alloctrait_t t[1] = {{omp_atk_alignment, 256}};
    omp_allocator_handle_t a = omp_init_allocator(omp_default_mem_space, 1, t);
    double *p = (double *)omp_alloc(10 * sizeof(double), a);
    for (int i = 0; i < 10; i++)
      p[i] = i;
    r[0] = aligned_to(p, 256) && p[9] == 9.0;
    void *q = omp_aligned_alloc(1024, 8, omp_default_mem_alloc);
    r[1] = aligned_to(q, 1024);
    void *s = omp_aligned_alloc(64, 8, a); // the larger of the two alignments
    r[2] = aligned_to(s, 256);
    omp_free(p, a);
    omp_free(q, omp_null_allocator);
    omp_free(s, a);
    omp_destroy_allocator(a);
  }
  printf("aligned: %d %d %d\n", r[0], r[1], r[2]);
  ok &= r[0] && r[1] && r[2];

  // A pool of 256 bytes: a second 200-byte block does not fit, null_fb answers NULL; once the
  // first is freed it fits again.
  int n[3] = {0, 0, 0};
#pragma omp target map(from : n)
  {
    omp_alloctrait_t t[2] = {{omp_atk_pool_size, 256}, {omp_atk_fallback, omp_atv_null_fb}};
    omp_allocator_handle_t a = omp_init_allocator(omp_default_mem_space, 2, t);
    void *x = omp_alloc(200, a);
    void *y = omp_alloc(200, a);
    n[0] = x != NULL;
    n[1] = y != NULL;
    omp_free(x, a);
    void *z = omp_alloc(200, a);
    n[2] = z != NULL;
    omp_free(z, a);
    omp_destroy_allocator(a);
  }
  printf("null_fb: %d %d %d\n", n[0], n[1], n[2]);
  ok &= n[0] == 1 && n[1] == 0 && n[2] == 1;

  // The default fallback takes omp_default_mem_alloc's memory instead.
  int d[2] = {0, 0};
#pragma omp target map(from : d)
  {
    omp_alloctrait_t t[1] = {{omp_atk_pool_size, 64}};
    omp_allocator_handle_t a = omp_init_allocator(omp_default_mem_space, 1, t);
    int *x = (int *)omp_alloc(48, a);
    int *y = (int *)omp_alloc(48, a);
    x[11] = 1;
    y[11] = 2;
    d[0] = x != NULL;
    d[1] = y != NULL && x[11] + y[11] == 3;
    omp_free(x, a);
    omp_free(y, a);
    omp_destroy_allocator(a);
  }
  printf("default_mem_fb: %d %d\n", d[0], d[1]);
  ok &= d[0] && d[1];

  // allocator_fb: the pool's overflow goes to the allocator fb_data names (aligned to 512).
  int f[2] = {0, 0};
#pragma omp target map(from : f)
  {
    omp_alloctrait_t tb[1] = {{omp_atk_alignment, 512}};
    omp_allocator_handle_t big = omp_init_allocator(omp_default_mem_space, 1, tb);
    omp_alloctrait_t t[3] = {{omp_atk_pool_size, 100},
                             {omp_atk_fallback, omp_atv_allocator_fb},
                             {omp_atk_fb_data, (omp_uintptr_t)big}};
    omp_allocator_handle_t a = omp_init_allocator(omp_default_mem_space, 3, t);
    void *x = omp_alloc(80, a);
    void *y = omp_alloc(80, a);
    f[0] = x != NULL;
    f[1] = aligned_to(y, 512);
    omp_free(x, omp_null_allocator);
    omp_free(y, omp_null_allocator);
    omp_destroy_allocator(a);
    omp_destroy_allocator(big);
  }
  printf("allocator_fb: %d %d\n", f[0], f[1]);
  ok &= f[0] && f[1];

  // omp_realloc keeps the contents up to the smaller size, in the allocator's alignment.
  int g[2] = {0, 0};
#pragma omp target map(from : g)
  {
    omp_alloctrait_t t[1] = {{omp_atk_alignment, 128}};
    omp_allocator_handle_t a = omp_init_allocator(omp_default_mem_space, 1, t);
    int *p = (int *)omp_alloc(4 * sizeof(int), omp_default_mem_alloc);
    for (int i = 0; i < 4; i++)
      p[i] = i + 1;
    int *q = (int *)omp_realloc(p, 100 * sizeof(int), a, omp_default_mem_alloc);
    g[0] = q[0] + q[1] + q[2] + q[3] == 10;
    g[1] = aligned_to(q, 128);
    omp_free(q, a);
    omp_destroy_allocator(a);
  }
  printf("realloc: %d %d\n", g[0], g[1]);
  ok &= g[0] && g[1];

  // uses_allocators with traits: the allocator exists in the region only.
  omp_alloctrait_t ut[1] = {{omp_atk_alignment, 64}};
  omp_allocator_handle_t mine = omp_null_allocator;
  int u[2] = {0, 0};
#pragma omp target map(from : u) uses_allocators(mine(ut))
  {
    int *p = (int *)omp_alloc(32 * sizeof(int), mine);
    for (int i = 0; i < 32; i++)
      p[i] = i;
    int s = 0;
    for (int i = 0; i < 32; i++)
      s += p[i];
    u[0] = aligned_to(p, 64);
    u[1] = s;
    omp_free(p, mine);
  }
  printf("uses_allocators: %d %d\n", u[0], u[1]);
  ok &= u[0] && u[1] == 496;

  // One pool for every thread of a team: ptxcc counts the bytes asked for (how much of a pool
  // an allocation uses is the implementation's choice), so 64 blocks of 16 bytes fill 1024
  // exactly and a 65th does not fit.
  int got = 0, over = 1;
  omp_allocator_handle_t shared = omp_null_allocator;
#pragma omp target parallel num_threads(64) map(tofrom : got, over, shared)
  {
#pragma omp single
    {
      omp_alloctrait_t t[2] = {{omp_atk_pool_size, 1024}, {omp_atk_fallback, omp_atv_null_fb}};
      shared = omp_init_allocator(omp_default_mem_space, 2, t);
    }
    void *block = omp_alloc(16, shared);
#pragma omp atomic
    got += block != NULL;
#pragma omp barrier
#pragma omp single
    over = omp_alloc(16, shared) != NULL;
    omp_free(block, shared);
#pragma omp barrier
#pragma omp single
    omp_destroy_allocator(shared);
  }
  printf("threads: %d %d\n", got, over);
  ok &= got == 64 && over == 0;

  // An alignment that is not a power of two (a value OpenMP does not allow; libomp stops the
  // program): ptxcc answers omp_null_allocator, as for an allocator it cannot make.
  int bad = 0;
#pragma omp target map(from : bad)
  {
    omp_alloctrait_t t[1] = {{omp_atk_alignment, 48}};
    bad = omp_init_allocator(omp_default_mem_space, 1, t) == omp_null_allocator;
  }
  printf("bad trait: %d\n", bad);
  ok &= bad;

  printf(ok ? "PASS\n" : "FAIL\n");
  return !ok;
}
