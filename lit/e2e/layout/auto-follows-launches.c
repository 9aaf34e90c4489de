// -fptxcc-layout=auto keeps an array's layout wherever a kernel it cannot see may get the
// array (issue 18): a data region that calls a function of another file while the array can be
// found by other code (its pointer kept in a global another file reads), that calls a function
// through a pointer, or that runs a host `parallel` region whose body launches kernels; each
// gets a remark, and no conversion happens at run time. One array passed for two read-only
// `restrict` parameters (`f(p, p)`, which restrict allows) is converted once for both. What
// the analysis still misses cannot stop the program: libptxrt converts the copy back for a
// kernel not compiled for the layout (tests/c_abi.rs, auto_layouts_follow_the_launches).
// Every answer is the serial one. This file is compiled twice: with -DOTHER it is the other
// file.
// RUN: %ptxcc -fopenmp -O2 -DOTHER -c %s -o %t.other.o
// RUN: %ptxcc -fopenmp -O2 -fptxcc-layout=auto -fptxcc-info %s %t.other.o -o %t 2>&1 | FileCheck %s --check-prefix=INFO
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY PTXRT_DEBUG=1 %run %t 2> %t.log | FileCheck %s
// RUN: FileCheck %s --check-prefix=SWITCH < %t.log
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %run %t 333 | FileCheck %s
// INFO-DAG: auto-follows-launches.c:[[#ESCAPED:]]:1: layout: p[?] stays: safety cannot be proved (the region calls 'other_tick', a function of another file, which may find it ({{.*}}) and launch kernels not compiled for its layout)
// INFO-DAG: auto-follows-launches.c:[[#TWICE:]]:1: layout: a[?] (structs) -> one array per field
// INFO-DAG: auto-follows-launches.c:[[#TWICE]]:1: layout: b[?] (structs) -> one array per field
// INFO-DAG: auto-follows-launches.c:[[#POINTER:]]:1: layout: the data region's arrays stay: it calls 'through', which launches kernels through further calls or through a pointer, from a task ('nowait'), or inside a data region of its own, where -fptxcc-layout=auto does not follow them
// INFO-DAG: auto-follows-launches.c:[[#PARALLEL:]]:1: layout: the data region's arrays stay: it calls '__kmpc_fork_call' with '{{.*}}omp_outlined{{.*}}', which launches kernels (a host parallel region or task), where -fptxcc-layout=auto does not follow them
// CHECK: escaped: ok
// CHECK: twice: ok
// CHECK: pointer: ok
// CHECK: parallel: ok
// SWITCH-NOT: converting the device copy
// SWITCH-NOT: error
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  double x, y, z, w;
} P;

#ifdef OTHER
extern P *shared_points;
extern int shared_count;

// Finds the array through a global another file set: nothing auto sees in the region's file.
void other_tick(void) {
  P *p = shared_points;
  int n = shared_count;
#pragma omp target teams distribute parallel for map(tofrom : p[0:n])
  for (int i = 0; i < n; i++)
    p[i].y += 1;
}
#else
P *shared_points;
int shared_count;
void other_tick(void);

static void fill(P *p, int n) {
  for (int i = 0; i < n; i++)
    p[i] = (P){i, 1, 2 * i, 2};
}

// Three trips of: x += y, z += w on the device, then y += 1: x = i + 1 + 2 + 3, y = 4.
static int check(const P *p, int n, const char *what) {
  for (int i = 0; i < n; i++)
    if (p[i].x != i + 6 || p[i].y != 4 || p[i].z != 2 * i + 6) {
      printf("%s: wrong at %d: %g %g %g\n", what, i, p[i].x, p[i].y, p[i].z);
      return 0;
    }
  return 1;
}

static void bump(P *p, int n) {
#pragma omp target teams distribute parallel for map(tofrom : p[0:n])
  for (int i = 0; i < n; i++)
    p[i].y += 1;
}

void (*volatile bump_hook)(P *, int) = bump;

static void through(P *p, int n) { bump_hook(p, n); }

// Read-only restrict parameters may be one array: the region's two layouts are one.
static void twice(const P *restrict a, const P *restrict b, double *restrict out, int n) {
#pragma omp target data map(to : a[0:n], b[0:n]) map(tofrom : out[0:n])
  for (int it = 0; it < 3; it++) {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++)
      out[i] += a[i].x + b[i].w;
  }
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000;
  P *p = malloc(n * sizeof *p);

  fill(p, n);
  shared_points = p;
  shared_count = n;
#pragma omp target data map(tofrom : p[0:n])
  for (int it = 0; it < 3; it++) {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++) {
      p[i].x += p[i].y;
      p[i].z += p[i].w;
    }
    other_tick();
  }
  printf("escaped: %s\n", check(p, n, "escaped") ? "ok" : "FAILED");

  double *out = calloc(n, sizeof *out);
  fill(p, n);
  twice(p, p, out, n);
  int ok = 1;
  for (int i = 0; i < n; i++)
    if (out[i] != 3 * (i + 2)) {
      printf("twice: wrong at %d: %g\n", i, out[i]);
      ok = 0;
      break;
    }
  printf("twice: %s\n", ok ? "ok" : "FAILED");

  fill(p, n);
#pragma omp target data map(tofrom : p[0:n])
  for (int it = 0; it < 3; it++) {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++) {
      p[i].x += p[i].y;
      p[i].z += p[i].w;
    }
    through(p, n);
  }
  printf("pointer: %s\n", check(p, n, "pointer") ? "ok" : "FAILED");

  fill(p, n);
#pragma omp target data map(tofrom : p[0:n])
  for (int it = 0; it < 3; it++) {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++) {
      p[i].x += p[i].y;
      p[i].z += p[i].w;
    }
#pragma omp parallel num_threads(2)
    {
      int h = n / 2, t = omp_get_thread_num();
      P *q = p + t * h;
      int m = t ? n - h : h;
#pragma omp target teams distribute parallel for map(tofrom : q[0:m])
      for (int i = 0; i < m; i++)
        q[i].y += 1;
    }
  }
  printf("parallel: %s\n", check(p, n, "parallel") ? "ok" : "FAILED");
  free(out);
  free(p);
  return 0;
}
#endif
