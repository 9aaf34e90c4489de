// A 'declare variant' that selects on device traits (kind, arch, isa) would silently run the host's
// choice on the device (ptxcc compiles device code from clang's host IR, where the call is already
// resolved): it is an error at its line. Other selectors, and omp.h's own kind(host) variant, are fine.
// RUN: not %ptxcc -fopenmp -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %ptxcc -fopenmp -DOTHER_SELECTORS -c %s -o /dev/null
// CHECK: declare-variant.c:[[#@LINE+11]]:1: error: ptxcc does not support 'declare variant' selecting on device traits (kind, arch, isa) yet
// CHECK-NEXT: declare-variant.c:[[#@LINE+13]]:1: error: ptxcc does not support 'declare variant' selecting on device traits (kind, arch, isa) yet
// CHECK-NEXT: 2 errors generated.
#include <omp.h>

int where_gpu(void) { return 1; }
int kind_of(void) { return 0; }
#ifdef OTHER_SELECTORS
#pragma omp declare variant(where_gpu) match(implementation = {vendor(llvm)})
int where(void) { return 0; }
#else
#pragma omp declare variant(where_gpu) match(device = {arch(nvptx, nvptx64)})
int where(void) { return 0; }

#pragma omp begin declare variant match(device = {kind(gpu)})
int kind_of(void) { return 1; }
#pragma omp end declare variant
#endif

int f(void) {
  int w = -1;
#pragma omp target map(from : w)
  w = where() + kind_of() + omp_is_initial_device();
  return w;
}
