// Each construct ptxcc cannot compile in a target region is reported once, at its line, with no
// follow-on errors about what clang generates for it (the end calls of a construct, a task's
// entry point reaching its privates through a function pointer, the dispatch loop of an ordered
// clause reported as a dynamic schedule). (taskloop compiles now: lit/e2e/tasks/taskloop.c.)
// RUN: not %ptxcc -fopenmp -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %ptxcc -fopenmp -DALLOCATE -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=ALLOC
// CHECK: unsupported-constructs.c:[[#@LINE+6]]:1: error: ptxcc does not support loops with an 'ordered' clause in target regions yet
// CHECK-NEXT: unsupported-constructs.c:[[#@LINE+7]]:1: error: ptxcc does not support 'ordered' in target regions yet
// CHECK-NEXT: 2 errors generated.
void f(int n, int *y) {
#pragma omp target parallel map(tofrom: y[0:n])
  {
#pragma omp for ordered
    for (int i = 0; i < n; i++) {
#pragma omp ordered
      y[i] += y[i - 1];
    }
  }
}

// In the code of a teams region around a parallel loop, which every thread runs for the team,
// the allocate directive (one allocation the team's parallel region shares) is named as such
// (not as a call to a runtime function), once. (Allocators elsewhere: lit/e2e/allocators/.)
// ALLOC: unsupported-constructs.c:[[#@LINE+7]]:{{[0-9]+}}: error: ptxcc does not support the allocate directive or clause in the code of a teams region around its parallel loop yet
// ALLOC-NEXT: 1 error generated.
#ifdef ALLOCATE
#include <omp.h>
void g(int *out) {
#pragma omp target teams num_teams(4) map(from: out[0:4]) uses_allocators(omp_pteam_mem_alloc)
  {
    int buf[64];
#pragma omp allocate(buf) allocator(omp_pteam_mem_alloc)
#pragma omp parallel num_threads(64)
    buf[omp_get_thread_num()] = 1;
    out[omp_get_team_num()] = buf[0];
  }
}
#endif
