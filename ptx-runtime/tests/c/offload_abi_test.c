/*
 * Exercises libptxrt through its C ABI exactly as ptxcc-generated code does, without the
 * compiler: hand-written emulator kernels (what the SIMT-lowering pass would produce), an image
 * registered from a global constructor, and offload arrays built the way clang 19 builds them.
 *
 * Usage: offload_abi_test TEST   (prints "ok" and exits 0 on success)
 */
#include "ptxcc_abi.h"
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <time.h>

typedef struct { int32_t r1, flags, r2, r3; const char *psource; } ident_t;
typedef struct {
  uint32_t Version, NumArgs;
  void **ArgBasePtrs, **ArgPtrs;
  int64_t *ArgSizes, *ArgTypes;
  void **ArgNames, **ArgMappers;
  uint64_t Tripcount, Flags;
  uint32_t NumTeams[3], ThreadLimit[3], DynCGroupMem;
} kargs_t;

void __tgt_target_data_begin_mapper(ident_t *, int64_t, int32_t, void **, void **, int64_t *, int64_t *, void **, void **);
void __tgt_target_data_end_mapper(ident_t *, int64_t, int32_t, void **, void **, int64_t *, int64_t *, void **, void **);
void __tgt_target_data_update_mapper(ident_t *, int64_t, int32_t, void **, void **, int64_t *, int64_t *, void **, void **);
int __tgt_target_kernel(ident_t *, int64_t, int32_t, int32_t, void *, kargs_t *);
int omp_get_num_devices(void);
int omp_get_initial_device(void);
int omp_get_default_device(void);
void omp_set_default_device(int);
int omp_is_initial_device(void);
void *omp_target_alloc(size_t, int);
void omp_target_free(void *, int);
int omp_target_is_present(const void *, int);
int omp_target_memcpy(void *, const void *, size_t, size_t, size_t, int, int);
int omp_target_associate_ptr(const void *, const void *, size_t, size_t, int);
int omp_target_disassociate_ptr(const void *, int);
void __ptxcc_layout_begin(const void *, uint64_t, const char *, const uint64_t *, uint64_t *);
void __ptxcc_layout_end(const void *, const char *);
void __ptxcc_layout_expect(uint32_t, const void *);

enum { TO = 1, FROM = 2, ALWAYS = 4, DELETE = 8, PTR_AND_OBJ = 0x10, PARAM = 0x20, RETURN_PARAM = 0x40,
       PRIVATE = 0x80, LITERAL = 0x100, IMPLICIT = 0x200, PRESENT = 0x1000 };
#define MEMBER_OF(i) ((int64_t)(i) << 48)

static int failures;
#define CHECK(c, ...) do { if (!(c)) { failures++; fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } } while (0)

static ident_t loc_main = {0, 2, 0, 22, ";saxpy.c;main;12;5;;"};
static ident_t loc_data = {0, 2, 0, 22, ";saxpy.c;main;10;3;;"};

/* ---- device code, as the SIMT-lowering pass would emit it ---- */

#define TID __ptxemu_sreg(PTXEMU_TID_X)
#define NTID __ptxemu_sreg(PTXEMU_NTID_X)
#define CTAID __ptxemu_sreg(PTXEMU_CTAID_X)
#define NCTAID __ptxemu_sreg(PTXEMU_NCTAID_X)

static float as_float(uint64_t bits) { float f; uint32_t b = (uint32_t)bits; memcpy(&f, &b, 4); return f; }

/* y[i] = a * x[i] + y[i]: params (n literal, a literal float, x, y) */
static void saxpy_emu(void **args) {
  int64_t n = *(int64_t *)args[0];
  float a = as_float(*(uint64_t *)args[1]);
  float *x = *(float **)args[2], *y = *(float **)args[3];
  for (int64_t i = (int64_t)CTAID * NTID + TID; i < n; i += (int64_t)NTID * NCTAID) y[i] = a * x[i] + y[i];
}

/* Block tree reduction in shared memory: partial[block] = sum of its grid-stride share of x. */
static void block_sum_emu(void **args) {
  int64_t n = *(int64_t *)args[0];
  double *x = *(double **)args[1], *partial = *(double **)args[2];
  double *sh = (double *)__ptxemu_shared_base();
  uint32_t tid = TID, ntid = NTID;
  double s = 0;
  for (int64_t i = (int64_t)CTAID * ntid + tid; i < n; i += (int64_t)ntid * NCTAID) s += x[i];
  sh[tid] = s;
  __ptxemu_barrier();
  for (uint32_t st = ntid / 2; st > 0; st >>= 1) {
    if (tid < st) sh[tid] += sh[tid + st];
    __ptxemu_barrier();
  }
  if (tid == 0) partial[CTAID] = sh[0];
}

static double shfl_down_f64(double v, uint32_t off) {
  uint64_t b; memcpy(&b, &v, 8);
  uint32_t lo = __ptxemu_shfl_sync(0xffffffffu, (uint32_t)b, off, 0x1f, PTXEMU_SHFL_DOWN);
  uint32_t hi = __ptxemu_shfl_sync(0xffffffffu, (uint32_t)(b >> 32), off, 0x1f, PTXEMU_SHFL_DOWN);
  b = ((uint64_t)hi << 32) | lo; memcpy(&v, &b, 8); return v;
}

/* Warp shuffles: out[w] = sum over warp w of (tid+1) as doubles (down), bfly[tid] = all-reduce of
 * lane ids (xor), idx[tid] = value of lane 3 (broadcast), up[tid] = lane - 1 or own lane. */
static void warp_emu(void **args) {
  double *out = *(double **)args[0];
  uint32_t *bfly = *(uint32_t **)args[1], *idx = *(uint32_t **)args[2], *up = *(uint32_t **)args[3];
  uint32_t tid = TID, lane = __ptxemu_sreg(PTXEMU_LANEID);
  double v = tid + 1;
  for (uint32_t off = 16; off > 0; off >>= 1) v += shfl_down_f64(v, off);
  if (lane == 0) out[tid / 32] = v;
  uint32_t s = lane;
  for (uint32_t m = 16; m > 0; m >>= 1) s += __ptxemu_shfl_sync(0xffffffffu, s, m, 0x1f, PTXEMU_SHFL_BFLY);
  bfly[tid] = s;
  idx[tid] = __ptxemu_shfl_sync(0xffffffffu, tid * 10, 3, 0x1f, PTXEMU_SHFL_IDX);
  up[tid] = __ptxemu_shfl_sync(0xffffffffu, lane, 1, 0, PTXEMU_SHFL_UP);
  __ptxemu_warp_sync(0xffffffffu);
}

/* Votes over a block of 40 threads (a full warp and a warp of 8 lanes). */
static void vote_emu(void **args) {
  uint32_t *res = *(uint32_t **)args[0];
  uint32_t tid = TID, w = tid / 32;
  uint32_t ballot = __ptxemu_vote_sync(0xffffffffu, tid % 2 == 0, PTXEMU_VOTE_BALLOT);
  uint32_t all = __ptxemu_vote_sync(0xffffffffu, tid < 36, PTXEMU_VOTE_ALL);
  uint32_t any = __ptxemu_vote_sync(0xffffffffu, tid == 33, PTXEMU_VOTE_ANY);
  uint32_t uni = __ptxemu_vote_sync(0xffffffffu, 1, PTXEMU_VOTE_UNI);
  if (__ptxemu_sreg(PTXEMU_LANEID) == 0) {
    res[w * 4 + 0] = ballot; res[w * 4 + 1] = all; res[w * 4 + 2] = any; res[w * 4 + 3] = uni;
  }
}

/* copy: y[i] = x[i] (with struct attachment variant below) */
static void copy_emu(void **args) {
  int64_t n = *(int64_t *)args[0];
  double *x = *(double **)args[1], *y = *(double **)args[2];
  for (int64_t i = (int64_t)CTAID * NTID + TID; i < n; i += (int64_t)NTID * NCTAID) y[i] = x[i];
}

struct S { int n; double *p; };
/* s->p[i] *= 2 : param is the device address of the struct */
static void struct_emu(void **args) {
  struct S *s = *(struct S **)args[0];
  for (int64_t i = (int64_t)CTAID * NTID + TID; i < s->n; i += (int64_t)NTID * NCTAID) s->p[i] *= 2;
}

/* declare target global: the emulator's copy */
static double g_host[4];
static double g_emu[4] = {-1, -1, -1, -1};
static void global_emu(void **args) {
  double *out = *(double **)args[0];
  if (TID == 0 && CTAID == 0) for (int i = 0; i < 4; i++) out[i] = g_emu[i] * 10;
}

/* firstprivate array: sum of a private copy, modified on the device */
static void fpriv_emu(void **args) {
  int *arr = *(int **)args[0];
  int *out = *(int **)args[1];
  arr[0] += 100; /* private copy: host must not see it */
  out[0] = arr[0] + arr[1] + arr[2];
}

static void trap_emu(void **args) { (void)args; if (TID == 5) __ptxemu_trap(); }
static void crash_emu(void **args) { (void)args; if (TID == 0) *(volatile int *)(uintptr_t)16 = 1; }
/* thread 0 waits at a barrier, the others shuffle with it: a deadlock */
static void deadlock_emu(void **args) {
  (void)args;
  if (TID == 0) __ptxemu_barrier();
  else __ptxemu_shfl_sync(0xffffffffu, 1, 0, 0x1f, PTXEMU_SHFL_IDX);
}
/* whoami: writes omp_is_initial_device() seen from device code */
static void whoami_emu(void **args) { int *r = *(int **)args[0]; if (TID == 0) r[0] = omp_is_initial_device(); }

/* slow_k: sets `slow_started`, sleeps, then x[i] = 42 for i < n (params n, x) */
static volatile int slow_started;
static void slow_emu(void **args) {
  int64_t n = *(int64_t *)args[0];
  double *x = *(double **)args[1];
  if (TID == 0) {
    slow_started = 1;
    struct timespec ts = {0, 300 * 1000 * 1000};
    nanosleep(&ts, NULL);
    for (int64_t i = 0; i < n; i++) x[i] = 42;
  }
}

/* rows: out[i] = sum over j of a[i][j], then a[i][j] += 1, for a[R][C] (params: R literal,
 * transposed literal, a, out). transposed = 1 is the kernel as the layout pass rewrites it for
 * the layout [C][R]: element (i, j) at j * R + i. */
enum { LR = 3, LC = 5 };
static void rows_emu(void **args) {
  int64_t r = *(int64_t *)args[0], transposed = *(int64_t *)args[1];
  double *a = *(double **)args[2], *out = *(double **)args[3];
  for (int64_t i = (int64_t)CTAID * NTID + TID; i < r; i += (int64_t)NTID * NCTAID) {
    double s = 0;
    for (int64_t j = 0; j < LC; j++) {
      double *e = transposed ? &a[j * r + i] : &a[i * LC + j];
      s += *e;
      *e += 1;
    }
    out[i] = s;
  }
}

static char rid_rows;
static char rid_slow, rid_saxpy, rid_sum, rid_warp, rid_vote, rid_copy, rid_struct, rid_global, rid_fpriv, rid_trap, rid_crash,
    rid_deadlock, rid_whoami, rid_unregistered;

static const ptxrt_kernel_desc kernels[] = {
    {&rid_saxpy, "saxpy_k", saxpy_emu, "saxpy.c:12:5", 4, PTXRT_EXEC_SPMD, 0, 0},
    {&rid_sum, "sum_k", block_sum_emu, "sum.c:20:1", 3, PTXRT_EXEC_SPMD, PTXRT_EMU_NEEDS_SYNC, 256 * 8},
    {&rid_warp, "warp_k", warp_emu, "warp.c:30:1", 4, PTXRT_EXEC_SPMD_ONE_TEAM, PTXRT_EMU_NEEDS_SYNC, 0},
    {&rid_vote, "vote_k", vote_emu, "vote.c:40:1", 1, PTXRT_EXEC_SPMD_ONE_TEAM, PTXRT_EMU_NEEDS_SYNC, 0},
    {&rid_copy, "copy_k", copy_emu, "copy.c:50:1", 3, PTXRT_EXEC_SPMD, 0, 0},
    {&rid_struct, "struct_k", struct_emu, "struct.c:60:1", 1, PTXRT_EXEC_SPMD, 0, 0},
    {&rid_global, "global_k", global_emu, "global.c:70:1", 1, PTXRT_EXEC_SINGLE, 0, 0},
    {&rid_fpriv, "fpriv_k", fpriv_emu, "fpriv.c:75:1", 2, PTXRT_EXEC_SINGLE, 0, 0},
    {&rid_trap, "trap_k", trap_emu, "trap.c:80:9", 0, PTXRT_EXEC_SPMD_ONE_TEAM, 0, 0},
    {&rid_crash, "crash_k", crash_emu, "crash.c:90:9", 0, PTXRT_EXEC_SINGLE, 0, 0},
    {&rid_deadlock, "deadlock_k", deadlock_emu, "deadlock.c:95:9", 0, PTXRT_EXEC_SPMD_ONE_TEAM, PTXRT_EMU_NEEDS_SYNC, 0},
    {&rid_whoami, "whoami_k", whoami_emu, "whoami.c:99:9", 1, PTXRT_EXEC_SINGLE, 0, 0},
    {&rid_slow, "slow_k", slow_emu, "slow.c:110:9", 2, PTXRT_EXEC_SINGLE, 0, 0},
    {&rid_rows, "rows_k", rows_emu, "rows.c:7:1", 4, PTXRT_EXEC_SPMD, 0, 0},
};
static const ptxrt_global_desc globals[] = {{g_host, "g", sizeof g_host, g_emu}};
static const ptxrt_image_desc image = {PTXRT_ABI_VERSION, sizeof kernels / sizeof kernels[0], 1, 0,
                                       "// no PTX in this test\n", "sm_90", "offload_abi_test.c", kernels, globals};

__attribute__((constructor)) static void register_image(void) { __ptxrt_register_image(&image); }

/* ---- host side, as clang emits it ---- */

static int launch(void *rid, int32_t teams, int32_t threads, uint32_t nargs, void **bases, void **ptrs, int64_t *sizes,
                  int64_t *types, void **names, uint64_t trip) {
  kargs_t a = {3, nargs, bases, ptrs, sizes, types, names, NULL, trip, 0,
               {(uint32_t)teams, 0, 0}, {(uint32_t)threads, 0, 0}, 0};
  return __tgt_target_kernel(&loc_main, -1, teams, threads, rid, &a);
}

static uint64_t fbits(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }

static int t_saxpy(void) {
  enum { N = 10000 };
  float *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
  for (int i = 0; i < N; i++) { x[i] = i; y[i] = 1; }
  int64_t n = N;
  void *bases[] = {(void *)(intptr_t)n, (void *)(uintptr_t)fbits(2.0f), x, y};
  void *ptrs[] = {(void *)(intptr_t)n, (void *)(uintptr_t)fbits(2.0f), x, y};
  int64_t sizes[] = {8, 4, N * 4, N * 4};
  int64_t types[] = {PARAM | LITERAL | IMPLICIT, PARAM | LITERAL | IMPLICIT, PARAM | TO, PARAM | TO | FROM};
  const char *names[] = {";n;saxpy.c;3;16;;", ";a;saxpy.c;3;25;;", ";x[0:n];saxpy.c;3;35;;", ";y[0:n];saxpy.c;3;45;;"};
  int r = launch(&rid_saxpy, 0, 64, 4, bases, ptrs, sizes, types, (void **)names, N);
  CHECK(r == 0, "kernel ran on the device (got %d)", r);
  for (int i = 0; i < N; i++) if (y[i] != 2.0f * i + 1) { CHECK(0, "y[%d] = %g", i, y[i]); break; }
  CHECK(omp_target_is_present(x, omp_get_default_device()) == 0, "x unmapped after the region");
  return 0;
}

static int t_reduction(void) {
  enum { N = 100000, TEAMS = 4 };
  double *x = malloc(N * sizeof *x), partial[TEAMS];
  for (int i = 0; i < N; i++) x[i] = i % 7;
  double expect = 0; for (int i = 0; i < N; i++) expect += x[i];
  int64_t n = N;
  void *bases[] = {(void *)(intptr_t)n, x, partial}, *ptrs[] = {(void *)(intptr_t)n, x, partial};
  int64_t sizes[] = {8, N * 8, TEAMS * 8}, types[] = {PARAM | LITERAL, PARAM | TO, PARAM | FROM};
  int r = launch(&rid_sum, TEAMS, 256, 3, bases, ptrs, sizes, types, NULL, N);
  CHECK(r == 0, "ran");
  double got = 0; for (int b = 0; b < TEAMS; b++) got += partial[b];
  CHECK(got == expect, "tree reduction: %g != %g", got, expect);
  return 0;
}

static int t_warp(void) {
  double out[3]; uint32_t bfly[96], idx[96], up[96];
  void *p[] = {out, bfly, idx, up};
  int64_t sizes[] = {sizeof out, sizeof bfly, sizeof idx, sizeof up}, types[] = {PARAM | FROM, PARAM | FROM, PARAM | FROM, PARAM | FROM};
  int r = launch(&rid_warp, 1, 96, 4, p, p, sizes, types, NULL, 0);
  CHECK(r == 0, "ran");
  for (int w = 0; w < 3; w++) {
    double e = 0; for (int t = 32 * w; t < 32 * w + 32; t++) e += t + 1;
    CHECK(out[w] == e, "shfl.down sum warp %d: %g != %g", w, out[w], e);
  }
  for (int t = 0; t < 96; t++) {
    CHECK(bfly[t] == 496, "bfly all-reduce lane sum at %d: %u", t, bfly[t]);
    CHECK(idx[t] == (uint32_t)((t / 32 * 32 + 3) * 10), "idx broadcast at %d: %u", t, idx[t]);
    uint32_t lane = t % 32;
    CHECK(up[t] == (lane == 0 ? 0 : lane - 1), "shfl.up at %d: %u", t, up[t]);
  }
  return 0;
}

static int t_vote(void) {
  uint32_t res[8];
  void *p[] = {res};
  int64_t sizes[] = {sizeof res}, types[] = {PARAM | FROM};
  int r = launch(&rid_vote, 1, 40, 1, p, p, sizes, types, NULL, 0);
  CHECK(r == 0, "ran");
  CHECK(res[0] == 0x55555555u, "ballot warp 0: %#x", res[0]);
  CHECK(res[4] == 0x55u, "ballot partial warp 1 (8 lanes): %#x", res[4]);
  CHECK(res[1] == 1 && res[5] == 0, "all: %u %u", res[1], res[5]);
  CHECK(res[2] == 0 && res[6] == 1, "any: %u %u", res[2], res[6]);
  CHECK(res[3] == 1 && res[7] == 1, "uni: %u %u", res[3], res[7]);
  return 0;
}

/* target data map(tofrom: x) { update; target (present); enter/exit nested } */
static int t_data(void) {
  enum { N = 1000 };
  double x[N], y[N];
  for (int i = 0; i < N; i++) { x[i] = i; y[i] = -1; }
  void *b1[] = {x}; int64_t s1[] = {sizeof x}, t_tofrom[] = {TO | FROM};
  const char *nx[] = {";x[0:n];data.c;5;20;;"};
  __tgt_target_data_begin_mapper(&loc_data, -1, 1, b1, b1, s1, t_tofrom, (void **)nx, NULL);
  CHECK(omp_target_is_present(x, 0), "x present in the data region");
  CHECK(omp_target_is_present(&x[500], 0), "inner element present");
  x[0] = 1234; /* host change not visible on the device until update */
  int64_t n = N;
  void *bases[] = {(void *)(intptr_t)n, x, y}, *ptrs[] = {(void *)(intptr_t)n, x, y};
  int64_t sizes[] = {8, sizeof x, sizeof y}, types[] = {PARAM | LITERAL, PARAM | TO | FROM | PRESENT, PARAM | FROM};
  CHECK(launch(&rid_copy, 0, 0, 3, bases, ptrs, sizes, types, NULL, N) == 0, "ran");
  CHECK(y[0] == 0 && y[999] == 999, "device kept its copy: y[0]=%g", y[0]);
  /* target update to(x[0:1]) then run again */
  void *b2[] = {x}; int64_t s2[] = {8}, t_to[] = {TO};
  __tgt_target_data_update_mapper(&loc_data, -1, 1, b1, b2, s2, t_to, NULL, NULL);
  CHECK(launch(&rid_copy, 0, 0, 3, bases, ptrs, sizes, types, NULL, N) == 0, "ran");
  CHECK(y[0] == 1234, "update to: y[0]=%g", y[0]);
  /* a partial section inside the mapped array as its own kernel argument */
  void *pb[] = {(void *)(intptr_t)10, x, y}, *pp[] = {(void *)(intptr_t)10, &x[100], y};
  int64_t ps[] = {8, 80, sizeof y};
  CHECK(launch(&rid_copy, 0, 0, 3, pb, pp, ps, types, NULL, 10) == 0, "ran");
  CHECK(y[0] == 1234 && y[9] == 9, "section arg base points at the array start");
  x[1] = -5; /* overwritten by the copy back at the end of the region */
  __tgt_target_data_end_mapper(&loc_data, -1, 1, b1, b1, s1, t_tofrom, (void **)nx, NULL);
  CHECK(x[1] == 1, "copied back at the end: %g", x[1]);
  CHECK(!omp_target_is_present(x, 0), "gone after the region");
  return 0;
}

/* map(alloc) where map(to) was needed: the kernel sees poison, not the host values */
static int t_poison(void) {
  enum { N = 16 };
  double x[N], y[N];
  for (int i = 0; i < N; i++) { x[i] = i; y[i] = 0; }
  int64_t n = N;
  void *bases[] = {(void *)(intptr_t)n, x, y}, *ptrs[] = {(void *)(intptr_t)n, x, y};
  int64_t sizes[] = {8, sizeof x, sizeof y}, types[] = {PARAM | LITERAL, PARAM /* alloc */, PARAM | FROM};
  CHECK(launch(&rid_copy, 0, 0, 3, bases, ptrs, sizes, types, NULL, N) == 0, "ran");
  for (int i = 0; i < N; i++) CHECK(isnan(y[i]), "y[%d] = %g should be poison (NaN)", i, y[i]);
  return 0;
}

static int t_struct(void) {
  double data[5] = {1, 2, 3, 4, 5};
  struct S s = {5, data};
  /* #pragma omp target map(tofrom: s.p[0:s.n]) -- plus s.n read on the device: map(to: s) first */
  void *bases[] = {&s, &s, &s.p}, *ptrs[] = {&s, &s, data};
  int64_t sizes[] = {sizeof s, sizeof s, sizeof data};
  int64_t types[] = {PARAM, MEMBER_OF(1) | TO, MEMBER_OF(1) | PTR_AND_OBJ | TO | FROM};
  CHECK(launch(&rid_struct, 0, 0, 3, bases, ptrs, sizes, types, NULL, 5) == 0, "ran");
  CHECK(data[0] == 2 && data[4] == 10, "attached pointer: %g %g", data[0], data[4]);
  CHECK(s.p == data, "host pointer kept");
  return 0;
}

static int t_global(void) {
  for (int i = 0; i < 4; i++) g_host[i] = i + 1;
  /* target update to(g) */
  void *b[] = {g_host}; int64_t s[] = {sizeof g_host}, t_to[] = {TO};
  __tgt_target_data_update_mapper(&loc_data, -1, 1, b, b, s, t_to, NULL, NULL);
  CHECK(g_emu[3] == 4, "update to copies into the emulator copy: %g", g_emu[3]);
  CHECK(omp_target_is_present(g_host, 0), "globals are always present");
  double out[4];
  void *p[] = {out}; int64_t so[] = {sizeof out}, to[] = {PARAM | FROM};
  CHECK(launch(&rid_global, 0, 0, 1, p, p, so, to, NULL, 0) == 0, "ran");
  CHECK(out[0] == 10 && out[3] == 40, "kernel reads the global: %g %g", out[0], out[3]);
  /* map(from: g) inside a target: refcount infinite, no copy back */
  g_emu[0] = 99;
  int64_t tf[] = {FROM};
  __tgt_target_data_begin_mapper(&loc_data, -1, 1, b, b, s, tf, NULL, NULL);
  __tgt_target_data_end_mapper(&loc_data, -1, 1, b, b, s, tf, NULL, NULL);
  CHECK(g_host[0] == 1, "no copy-back for globals on exit (infinite count): %g", g_host[0]);
  int64_t tfa[] = {FROM | ALWAYS};
  __tgt_target_data_end_mapper(&loc_data, -1, 1, b, b, s, tfa, NULL, NULL);
  CHECK(g_host[0] == 99, "always from copies back: %g", g_host[0]);
  return 0;
}

static int t_firstprivate(void) {
  int arr[3] = {1, 2, 3}, out = 0;
  void *p[] = {arr, &out}; int64_t s[] = {sizeof arr, sizeof out}, t[] = {PARAM | PRIVATE | TO, PARAM | FROM};
  CHECK(launch(&rid_fpriv, 0, 0, 2, p, p, s, t, NULL, 0) == 0, "ran");
  CHECK(out == 106, "private copy: %d", out);
  CHECK(arr[0] == 1, "host array untouched: %d", arr[0]);
  return 0;
}

static int t_enter_exit(void) {
  double x[8] = {0};
  void *b[] = {x}; int64_t s[] = {sizeof x};
  int64_t to[] = {TO}, rel[] = {0}, del[] = {DELETE}, from[] = {FROM}, ret[] = {RETURN_PARAM};
  __tgt_target_data_begin_mapper(&loc_data, -1, 1, b, b, s, to, NULL, NULL);
  __tgt_target_data_begin_mapper(&loc_data, -1, 1, b, b, s, to, NULL, NULL);
  __tgt_target_data_end_mapper(&loc_data, -1, 1, b, b, s, rel, NULL, NULL);
  CHECK(omp_target_is_present(x, 0), "one reference left");
  /* use_device_ptr: base pointer replaced by the device address */
  void *ub[] = {x}, *up[] = {x}; int64_t us[] = {0};
  __tgt_target_data_begin_mapper(&loc_data, -1, 1, ub, up, us, ret, NULL, NULL);
  CHECK(ub[0] != (void *)x && ub[0] != NULL, "use_device_ptr gave %p", ub[0]);
  double seven = 7;
  CHECK(omp_target_memcpy(ub[0], &seven, 8, 0, 0, 0, omp_get_initial_device()) == 0, "memcpy to device");
  __tgt_target_data_end_mapper(&loc_data, -1, 1, up, up, us, ret, NULL, NULL); /* end of that data region */
  __tgt_target_data_end_mapper(&loc_data, -1, 1, b, b, s, from, NULL, NULL);
  CHECK(x[0] == 7, "exit data from: %g", x[0]);
  CHECK(!omp_target_is_present(x, 0), "removed");
  __tgt_target_data_begin_mapper(&loc_data, -1, 1, b, b, s, to, NULL, NULL);
  __tgt_target_data_begin_mapper(&loc_data, -1, 1, b, b, s, to, NULL, NULL);
  __tgt_target_data_end_mapper(&loc_data, -1, 1, b, b, s, del, NULL, NULL);
  CHECK(!omp_target_is_present(x, 0), "delete drops every reference");
  return 0;
}

static int t_omp_api(void) {
  CHECK(omp_get_num_devices() == 1, "one device: %d", omp_get_num_devices());
  CHECK(omp_get_initial_device() == 1, "initial device: %d", omp_get_initial_device());
  CHECK(omp_is_initial_device() == 1, "host is the initial device");
  int r = -1;
  void *p[] = {&r}; int64_t s[] = {sizeof r}, t[] = {PARAM | FROM};
  CHECK(launch(&rid_whoami, 0, 0, 1, p, p, s, t, NULL, 0) == 0, "ran");
  CHECK(r == 0, "device code is not the initial device: %d", r);
  double h[4] = {1, 2, 3, 4}, back[4] = {0};
  double *d = omp_target_alloc(sizeof h, 0);
  CHECK(d != NULL, "alloc");
  CHECK(omp_target_memcpy(d, h, sizeof h, 0, 0, 0, 1) == 0, "h2d");
  CHECK(omp_target_memcpy(back, d, 16, 8, 16, 1, 0) == 0, "d2h with offsets");
  CHECK(back[1] == 3 && back[2] == 4, "offsets: %g %g", back[1], back[2]);
  CHECK(omp_target_associate_ptr(h, d, sizeof h, 0, 0) == 0, "associate");
  CHECK(omp_target_is_present(&h[2], 0), "associated is present");
  CHECK(omp_target_associate_ptr(&h[1], d, 8, 0, 0) != 0, "conflicting association refused");
  CHECK(omp_target_disassociate_ptr(h, 0) == 0, "disassociate");
  CHECK(!omp_target_is_present(h, 0), "gone");
  omp_target_free(d, 0);
  CHECK(omp_target_alloc(16, 7) == NULL, "bad device gives NULL");
  /* omp_set_default_device(initial device): constructs with no device clause run on the host */
  omp_set_default_device(omp_get_initial_device());
  CHECK(omp_get_default_device() == 1, "default device set: %d", omp_get_default_device());
  r = -1;
  CHECK(launch(&rid_whoami, 0, 0, 1, p, p, s, t, NULL, 0) != 0, "host fallback requested for the host device");
  omp_set_default_device(0);
  CHECK(launch(&rid_whoami, 0, 0, 1, p, p, s, t, NULL, 0) == 0 && r == 0, "back on device 0");
  return 0;
}

static int t_disabled(void) {
  CHECK(omp_get_num_devices() == 0, "no devices when disabled: %d", omp_get_num_devices());
  double x[4] = {1, 2, 3, 4};
  void *b[] = {x}; int64_t s[] = {sizeof x}, to[] = {TO | FROM};
  __tgt_target_data_begin_mapper(&loc_data, -1, 1, b, b, s, to, NULL, NULL);
  CHECK(omp_get_initial_device() == 0, "device 0 is the host when offload is disabled");
  int64_t n = 4; double y[4];
  void *bases[] = {(void *)(intptr_t)n, x, y};
  int64_t sizes[] = {8, 32, 32}, types[] = {PARAM | LITERAL, PARAM | TO, PARAM | FROM};
  CHECK(launch(&rid_copy, 0, 0, 3, bases, bases, sizes, types, NULL, 4) != 0, "host fallback requested");
  __tgt_target_data_end_mapper(&loc_data, -1, 1, b, b, s, to, NULL, NULL);
  return 0;
}

/* errors: each exits the process with status 1 and a message on stderr */
static int t_not_present(void) {
  double x[1000];
  void *b[] = {x}; int64_t s[] = {sizeof x}, t[] = {PARAM | TO | PRESENT};
  const char *nx[] = {";x[0:n];saxpy.c;6;35;;"};
  int64_t n = 1000;
  void *bases[] = {(void *)(intptr_t)n, x, x};
  int64_t sizes[] = {8, sizeof x, sizeof x}, types[] = {PARAM | LITERAL, PARAM | TO | PRESENT, PARAM | FROM};
  const char *names[] = {";n;saxpy.c;6;20;;", nx[0], nx[0]};
  (void)b; (void)s; (void)t;
  launch(&rid_copy, 0, 0, 3, bases, bases, sizes, types, (void **)names, n);
  return 0; /* not reached */
}

static int t_overlap(void) {
  double x[100];
  void *b[] = {x}, *p2[] = {&x[25]};
  int64_t s[] = {400}, to[] = {TO};
  const char *n1[] = {";x[0:50];over.c;7;1;;"}, *n2[] = {";x[25:75];over.c;8;1;;"};
  __tgt_target_data_begin_mapper(&loc_data, -1, 1, b, b, s, to, (void **)n1, NULL);
  __tgt_target_data_begin_mapper(&loc_data, -1, 1, b, p2, s, to, (void **)n2, NULL);
  return 0;
}

static int t_trap(void) {
  launch(&rid_trap, 1, 32, 0, NULL, NULL, NULL, NULL, NULL, 0);
  return 0;
}
static int t_crash(void) {
  launch(&rid_crash, 1, 1, 0, NULL, NULL, NULL, NULL, NULL, 0);
  return 0;
}
static int t_deadlock(void) {
  launch(&rid_deadlock, 1, 32, 0, NULL, NULL, NULL, NULL, NULL, 0);
  return 0;
}
static int t_unregistered(void) {
  launch(&rid_unregistered, 1, 1, 0, NULL, NULL, NULL, NULL, NULL, 0);
  return 0;
}
static int t_profile(void) {
  t_saxpy();
  t_saxpy();
  return 0;
}
static int t_emu_oom(void) {
  static double big[1 << 17]; /* 1 MiB, more than PTXRT_EMU_MEMORY=64K */
  void *b[] = {big}; int64_t s[] = {sizeof big}, to[] = {TO};
  const char *nb[] = {";big[0:N];oom.c;3;9;;"};
  __tgt_target_data_begin_mapper(&loc_data, -1, 1, b, b, s, to, (void **)nb, NULL);
  return 0;
}

/* A pointer used in a region without a map clause: clang passes it as TARGET_PARAM|IMPLICIT with
 * size 0. Runs copy_k (n, x, y) with x passed that way and y mapped from. */
void __tgt_register_requires(int64_t);
static int copy_implicit_x(double *x, double *y, int64_t n) {
  void *b[] = {(void *)(intptr_t)n, x, y}, *p[] = {(void *)(intptr_t)n, x, y};
  int64_t sizes[] = {8, 0, n * 8}, types[] = {PARAM | LITERAL | IMPLICIT, PARAM | IMPLICIT, PARAM | FROM};
  const char *names[] = {";n;unmapped.c;4;7;;", ";x;unmapped.c;5;11;;", ";y[0:n];unmapped.c;6;11;;"};
  return launch(&rid_copy, 0, 0, 3, b, p, sizes, types, (void **)names, n);
}

static int t_unmapped_ptr(void) {
  double x[16], y[16];
  for (int i = 0; i < 16; i++) x[i] = i;
  fprintf(stderr, "host x = %p\n", (void *)x);
  copy_implicit_x(x, y, 16);
  return 0; /* not reached */
}

/* PTXRT_UNMAPPED_POINTERS=pass, or requires unified_shared_memory: the emulator can read host memory */
static int t_unmapped_ptr_pass(void) {
  double x[16], y[16];
  for (int i = 0; i < 16; i++) { x[i] = i; y[i] = -1; }
  CHECK(copy_implicit_x(x, y, 16) == 0, "ran");
  CHECK(y[15] == 15, "host address passed: y[15] = %g", y[15]);
  return 0;
}
static int t_unmapped_ptr_requires(void) {
  __tgt_register_requires(0x8 /* OMP_REQ_UNIFIED_SHARED_MEMORY */);
  return t_unmapped_ptr_pass();
}

/* What stays valid without a map: NULL, mapped data, device memory, use_device_ptr results,
 * is_device_ptr (LITERAL), the base pointer of a mapped section. */
static int t_unmapped_ptr_ok(void) {
  enum { N = 16 };
  double x[N], y[N];
  for (int i = 0; i < N; i++) { x[i] = i; y[i] = -1; }
  /* NULL with n = 0: the kernel does not touch it */
  CHECK(copy_implicit_x(NULL, y, 0) == 0, "NULL passes");
  /* enclosing target data */
  void *b[] = {x}; int64_t s[] = {sizeof x}, to[] = {TO};
  __tgt_target_data_begin_mapper(&loc_data, -1, 1, b, b, s, to, NULL, NULL);
  CHECK(copy_implicit_x(x, y, N) == 0 && y[7] == 7, "mapped by an enclosing region: %g", y[7]);
  /* use_device_ptr result */
  void *ub[] = {x}, *up[] = {x}; int64_t us[] = {0}, ret[] = {RETURN_PARAM};
  __tgt_target_data_begin_mapper(&loc_data, -1, 1, ub, up, us, ret, NULL, NULL);
  y[3] = -1;
  CHECK(copy_implicit_x((double *)ub[0], y, N) == 0 && y[3] == 3, "device address from use_device_ptr: %g", y[3]);
  __tgt_target_data_end_mapper(&loc_data, -1, 1, up, up, us, ret, NULL, NULL);
  __tgt_target_data_end_mapper(&loc_data, -1, 1, b, b, s, to, NULL, NULL);
  /* base pointer of a mapped section x[4:8] */
  void *pb[] = {x}, *pp[] = {&x[4]}; int64_t ps[] = {8 * 8};
  __tgt_target_data_begin_mapper(&loc_data, -1, 1, pb, pp, ps, to, NULL, NULL);
  y[5] = -1;
  /* copy_k reads x[0..n): pass x+4 (inside the section) */
  CHECK(copy_implicit_x(&x[4], y, 2) == 0 && y[1] == 5, "inside a mapped section: %g", y[1]);
  __tgt_target_data_end_mapper(&loc_data, -1, 1, pb, pp, ps, to, NULL, NULL);
  /* omp_target_alloc'd memory used without is_device_ptr, and a pointer into it */
  double *d = omp_target_alloc(sizeof x, 0);
  CHECK(omp_target_memcpy(d, x, sizeof x, 0, 0, 0, omp_get_initial_device()) == 0, "memcpy");
  y[9] = -1;
  CHECK(copy_implicit_x(d, y, N) == 0 && y[9] == 9, "device memory: %g", y[9]);
  CHECK(copy_implicit_x(d + 8, y, 4) == 0 && y[0] == 8, "inside device memory: %g", y[0]);
  /* is_device_ptr: TARGET_PARAM|LITERAL, never checked */
  int64_t n = N;
  void *lb[] = {(void *)(intptr_t)n, d, y};
  int64_t ls[] = {8, 8, sizeof y}, lt[] = {PARAM | LITERAL | IMPLICIT, PARAM | LITERAL, PARAM | FROM};
  y[2] = -1;
  CHECK(launch(&rid_copy, 0, 0, 3, lb, lb, ls, lt, NULL, N) == 0 && y[2] == 2, "is_device_ptr: %g", y[2]);
  omp_target_free(d, 0);
  return 0;
}

/* The end of a data region waits for a kernel still using its data: a `target nowait
 * map(present, alloc: x)` task (as OpenACC `parallel async present(x)` becomes) runs on another
 * thread while the region's end (map tofrom) comes. Without the wait the region's end would drop a
 * reference without copying back, and the task's end would free x without copying either. */
int __tgt_target_kernel_nowait(ident_t *, int64_t, int32_t, int32_t, void *, kargs_t *, int32_t, void *, int32_t,
                               void *);
enum { SLOW_N = 64 };
static double slow_x[SLOW_N];
static void *slow_task(void *arg) {
  (void)arg;
  int64_t n = SLOW_N;
  void *b[] = {(void *)(intptr_t)n, slow_x};
  int64_t sz[] = {8, sizeof slow_x}, ty[] = {PARAM | LITERAL, PARAM | PRESENT};
  kargs_t a = {3, 2, b, b, sz, ty, NULL, NULL, 0, 1 /* nowait */, {1, 0, 0}, {1, 0, 0}, 0};
  __tgt_target_kernel_nowait(&loc_main, -1, 1, 1, &rid_slow, &a, 0, NULL, 0, NULL);
  return NULL;
}
static int t_data_end_waits(void) {
  for (int i = 0; i < SLOW_N; i++) slow_x[i] = 1;
  void *b[] = {slow_x}; int64_t s[] = {sizeof slow_x}, tf[] = {TO | FROM};
  __tgt_target_data_begin_mapper(&loc_data, -1, 1, b, b, s, tf, NULL, NULL);
  pthread_t th;
  CHECK(pthread_create(&th, NULL, slow_task, NULL) == 0, "thread");
  while (!slow_started) { struct timespec ts = {0, 1000 * 1000}; nanosleep(&ts, NULL); }
  __tgt_target_data_end_mapper(&loc_data, -1, 1, b, b, s, tf, NULL, NULL);
  CHECK(slow_x[0] == 42 && slow_x[SLOW_N - 1] == 42, "copied back after the kernel: %g", slow_x[0]);
  pthread_join(th, NULL);
  CHECK(!omp_target_is_present(slow_x, 0), "released by the last user");
  return 0;
}

/* A layout -fptxcc-layout=auto chose (`~` in the description) inside a data region: a kernel
 * compiled for it (announced by __ptxcc_layout_expect) reads the converted copy; a kernel that
 * was not gets the copy converted back to the original layout; the next compiled one converts
 * it again; the region's end and copy-out see whichever layout the copy is in. Every launch
 * must compute the same row sums, and the host gets every element incremented once per launch. */
static int t_layout_auto(void) {
  static double a[LR][LC];
  double out[LR];
  for (int i = 0; i < LR; i++) for (int j = 0; j < LC; j++) a[i][j] = 10 * i + j;
  const char *desc = "a;3,5;~2,1;lay.c:3:1";
  void *b1[] = {a}; int64_t s1[] = {sizeof a}, t_tofrom[] = {TO | FROM};
  const char *na[] = {";a;lay.c;3;1;;"};
  __ptxcc_layout_begin(a, 8, desc, NULL, NULL);
  __tgt_target_data_begin_mapper(&loc_data, -1, 1, b1, b1, s1, t_tofrom, (void **)na, NULL);
  int64_t r = LR;
  const int transposed[] = {1, 0, 0, 1, 0};
  for (int k = 0; k < 5; k++) {
    int64_t t = transposed[k];
    void *bases[] = {(void *)(intptr_t)r, (void *)(intptr_t)t, a, out};
    int64_t sizes[] = {8, 8, sizeof a, sizeof out};
    int64_t types[] = {PARAM | LITERAL, PARAM | LITERAL, PARAM | TO | FROM, PARAM | FROM};
    if (t) __ptxcc_layout_expect(2, a);
    CHECK(launch(&rid_rows, 1, 32, 4, bases, bases, sizes, types, NULL, LR) == 0, "launch %d ran", k);
    for (int i = 0; i < LR; i++) {
      double e = 0;
      for (int j = 0; j < LC; j++) e += 10 * i + j + k;
      CHECK(out[i] == e, "launch %d (%s kernel): row %d sums to %g, not %g", k, t ? "the layout's" : "the original",
            i, out[i], e);
    }
  }
  __tgt_target_data_end_mapper(&loc_data, -1, 1, b1, b1, s1, t_tofrom, (void **)na, NULL);
  __ptxcc_layout_end(a, desc);
  for (int i = 0; i < LR; i++)
    for (int j = 0; j < LC; j++) CHECK(a[i][j] == 10 * i + j + 5, "a[%d][%d] = %g after the region", i, j, a[i][j]);
  return 0;
}

static const struct { const char *name; int (*fn)(void); } tests[] = {
    {"layout_auto", t_layout_auto},
    {"data_end_waits", t_data_end_waits},
    {"unmapped_ptr", t_unmapped_ptr}, {"unmapped_ptr_pass", t_unmapped_ptr_pass},
    {"unmapped_ptr_requires", t_unmapped_ptr_requires}, {"unmapped_ptr_ok", t_unmapped_ptr_ok},
    {"saxpy", t_saxpy}, {"reduction", t_reduction}, {"warp", t_warp}, {"vote", t_vote}, {"data", t_data},
    {"poison", t_poison}, {"struct", t_struct}, {"global", t_global}, {"firstprivate", t_firstprivate},
    {"enter_exit", t_enter_exit}, {"omp_api", t_omp_api}, {"disabled", t_disabled}, {"not_present", t_not_present},
    {"overlap", t_overlap}, {"trap", t_trap}, {"crash", t_crash}, {"deadlock", t_deadlock},
    {"unregistered", t_unregistered}, {"profile", t_profile}, {"emu_oom", t_emu_oom},
};

int main(int argc, char **argv) {
  if (argc != 2) { fprintf(stderr, "usage: %s TEST\n", argv[0]); return 2; }
  for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++) {
    if (strcmp(argv[1], tests[i].name) == 0) {
      tests[i].fn();
      if (failures) return 1;
      printf("ok\n");
      return 0;
    }
  }
  fprintf(stderr, "unknown test %s\n", argv[1]);
  return 2;
}
