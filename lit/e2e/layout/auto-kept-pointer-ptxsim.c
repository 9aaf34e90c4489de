// A kernel that keeps a pointer it gets in device memory (`keep[0] = p` in a target region)
// makes libptxrt convert layouts in place for the whole program (KERNEL_STORES_POINTERS,
// registry::kernels_keep_pointers): a copy moved to new device memory would leave that pointer
// behind, where the kernel after the region reads through it (ptxsim: an illegal address).
// `steps` lays its `restrict` structs out as one array per field (auto): the conversion there
// and back at its region's end now goes through scratch memory and a device-to-device copy
// each (2 copies), and keep[0] still reaches p[5] afterwards. -fptxcc-info says why.
// REQUIRES: ptxsim
// RUN: %ptxcc -fopenmp -O2 -fptxcc-layout=auto -fptxcc-info %s -o %t 2>&1 | FileCheck %s --check-prefix=INFO
// RUN: env PTXSIM_STATS=json:%t.stats PTXRT_LAYOUT_AUTO=always %run %t | FileCheck %s
// RUN: %python -c "import json,sys; d=json.load(open(sys.argv[1])); print('copies', d['device_copies']['count'])" %t.stats | FileCheck %s --check-prefix=STATS
// INFO-DAG: auto-kept-pointer-ptxsim.c:[[#]]:1: layout: p[?] (structs) -> one array per field
// INFO-DAG: auto-kept-pointer-ptxsim.c:[[#]]:1: layout: the kernel may keep a pointer it gets in device memory (its address is stored where other code may read it): libptxrt converts layouts in place, never moving a device copy
// CHECK: kept: ok
// STATS: copies 2
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  float x, y, z;
} P;
static P *keep[1];

void steps(P *restrict p, int n, int iters) {
#pragma omp target data map(tofrom : p[0:n])
  for (int it = 0; it < iters; it++) {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++)
      p[i].z = p[i].x * p[i].y + it;
  }
}

int main(void) {
  int n = 4096;
  P *p = malloc(n * sizeof(P));
  for (int i = 0; i < n; i++) {
    p[i].x = i;
    p[i].y = 2;
    p[i].z = 0;
  }
  float seen = -1;
#pragma omp target data map(tofrom : p[0:n]) map(alloc : keep)
  {
#pragma omp target
    keep[0] = p;
    steps(p, n, 8);
#pragma omp target map(from : seen)
    seen = keep[0][5].z;
  }
  printf("kept: %s\n", seen == p[5].z && p[5].z == 5 * 2 + 7 ? "ok" : "WRONG");
  return 0;
}
