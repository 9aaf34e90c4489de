// -fptxcc-layout=auto beyond globals of constant shape (issue 18): arrays of structs mapped as
// pointer sections (p[0:n], the length known at run time), in a data region and by a compute
// construct's own data clauses (kernel level). The layout becomes one array per field where
// the kernels walk the struct index and no other pointer the kernels get may point into the
// array: restrict parameters, arrays from distinct malloc calls, or the only pointer. Where
// that cannot be proved the array stays and -fptxcc-info says why; so does one whose data
// region reads the device copy by its address (omp_get_mapped_ptr, omp_target_memcpy: that
// code expects the host's layout, and the raw copy shows it has it). Every answer is compared
// with the serial computation, for two sizes. The data regions run their kernels in a loop (the conversions at the region's
// start and end are paid once for every trip); a compute construct's own data clauses
// convert for one launch, which never pays: that array stays, and so does a kernel-level
// construct called inside a data region; an empty section converts nothing.
// RUN: %ptxcc -fopenmp -O2 -fptxcc-layout=auto -fptxcc-info %s -o %t 2>&1 | FileCheck %s --check-prefix=INFO
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t 1000 | FileCheck %s
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t 333 | FileCheck %s
// RUN: %ptxcc -fopenmp -O2 %s -o %t.off
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t.off 1000 | FileCheck %s
// INFO-DAG: auto-sections.c:[[#RESTRICT:]]:1: layout: p[?] (structs) -> one array per field, p[3][?] (3 fields of 8 bytes; coalesced on the struct index: 5 of 5 accesses)
// INFO-DAG: auto-sections.c:[[#RESTRICT]]:1: layout: w[?] stays: already coalesced
// INFO-DAG: auto-sections.c:[[#KERNEL:]]:1: layout: p[?] stays: the compute construct maps it for its one launch: converting it before and back after would cost more than the launch gains (map it in a data region around a loop of launches)
// INFO-DAG: auto-sections.c:[[#PRESENT:]]:1: layout: p[?] stays: not at the construct: its function is called inside the data region at {{.*}}auto-sections.c:[[#]]:1, which decides the layout of what it maps (the construct converting it would do so at every launch and back)
// INFO-DAG: auto-sections.c:[[#ALIAS:]]:1: layout: p[?] stays: safety cannot be proved (kernel '{{.*}}' also gets pointer argument {{[0-9]}}, which may point into the same memory
// INFO-DAG: auto-sections.c:[[#MAIN:]]:1: layout: m[?] (structs) -> one array per field, m[3][?] (3 fields of 8 bytes; coalesced on the struct index: 2 of 2 accesses)
// INFO-DAG: auto-sections.c:[[#RAW:]]:1: layout: m[?] stays: the data region uses device addresses ('omp_get_mapped_ptr'), which would see the converted copy
// CHECK: restrict: ok
// CHECK: kernel level: ok
// CHECK: may alias: ok
// CHECK: malloc: ok
// CHECK: device copy: structs
// CHECK: present, empty: ok
// CHECK: PASS
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  double x, y, z;
} point;

static void init(point *p, int n) {
  for (int i = 0; i < n; i++) {
    p[i].x = i;
    p[i].y = 2 * i;
    p[i].z = -i;
  }
}

static void work_restrict(point *restrict p, double *restrict w, int n, int iters) {
#pragma omp target data map(tofrom : p[0:n]) map(to : w[0:n])
  for (int it = 0; it < iters; it++) {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++) {
      p[i].z = p[i].x * w[i] + p[i].y;
      p[i].x += 1;
    }
  }
}

static void kernel_level(point *p, int n) {
#pragma omp target teams distribute parallel for map(tofrom : p[0:n])
  for (int i = 0; i < n; i++)
    p[i].y = p[i].x + p[i].z;
}

// Called inside a data region of main: its array is present there, so auto at kernel level
// would convert it at every launch and back; it stays.
static void kernel_level_present(point *p, int n) {
#pragma omp target teams distribute parallel for map(tofrom : p[0:n])
  for (int i = 0; i < n; i++)
    p[i].y = p[i].x + p[i].z;
}

static void may_alias(point *p, double *w, int n, int iters) {
#pragma omp target data map(tofrom : p[0:n]) map(to : w[0:n])
  for (int it = 0; it < iters; it++) {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++)
      p[i].x = p[i].y + w[i];
  }
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000;
  int iters = argc > 2 ? atoi(argv[2]) : 3;
  point *p = malloc(n * sizeof(point));
  double *w = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    w[i] = 0.5 * i;
  int bad = 0;

  init(p, n);
  work_restrict(p, w, n, iters);
  for (int i = 0; i < n; i++)
    bad += p[i].x != i + iters || p[i].y != 2 * i || p[i].z != (i + iters - 1) * (0.5 * i) + 2 * i;
  printf("restrict: %s\n", bad ? "WRONG" : "ok");

  init(p, n);
  kernel_level(p, n);
  int b2 = 0;
  for (int i = 0; i < n; i++)
    b2 += p[i].x != i || p[i].y != 0 || p[i].z != -i;
  printf("kernel level: %s\n", b2 ? "WRONG" : "ok");

  init(p, n);
  may_alias(p, w, n, iters);
  int b3 = 0;
  for (int i = 0; i < n; i++)
    b3 += p[i].x != 2 * i + 0.5 * i || p[i].y != 2 * i;
  printf("may alias: %s\n", b3 ? "WRONG" : "ok");

  // Two arrays from distinct malloc calls, mapped here.
  point *m = malloc(n * sizeof(point));
  init(m, n);
  int dev = omp_get_default_device(), host = omp_get_initial_device();
#pragma omp target data map(tofrom : m[0:n]) map(to : w[0:n])
  for (int it = 0; it < iters; it++) {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++)
      m[i].z = m[i].y * w[i];
  }
  int b4 = 0;
  for (int i = 0; i < n; i++)
    b4 += m[i].x != i || m[i].y != 2 * i || m[i].z != 2 * i * (0.5 * i);
  printf("malloc: %s\n", b4 ? "WRONG" : "ok");
  // The same region reading the device copy by its address: m keeps the host's layout.
#pragma omp target data map(tofrom : m[0:n]) map(to : w[0:n])
  {
    double y7[2];
    char *d = omp_get_mapped_ptr(m, dev);
    omp_target_memcpy(&y7[0], d, sizeof(double), 0, (n + 7) * sizeof(double), host, dev);
    omp_target_memcpy(&y7[1], d, sizeof(double), 0, (3 * 7 + 1) * sizeof(double), host, dev);
    printf("device copy: %s\n", y7[1] == 14 ? "structs" : y7[0] == 14 ? "one array per field" : "WRONG");
    for (int it = 0; it < iters; it++) {
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; i++)
        m[i].z = m[i].y * w[i] + 1;
    }
  }
  for (int i = 0; i < n; i++)
    b4 += m[i].z != 2 * i * (0.5 * i) + 1;

  // Kernel level inside a caller's data region: stays. An empty section converts nothing.
  init(p, n);
#pragma omp target data map(tofrom : p[0:n])
  kernel_level_present(p, n);
  kernel_level(p, 0);
  int b5 = 0;
  for (int i = 0; i < n; i++)
    b5 += p[i].x != i || p[i].y != 0 || p[i].z != -i;
  printf("present, empty: %s\n", b5 ? "WRONG" : "ok");
  int all = bad || b2 || b3 || b4 || b5;
  printf("%s\n", all ? "FAIL" : "PASS");
  free(p);
  free(m);
  free(w);
  return all;
}
