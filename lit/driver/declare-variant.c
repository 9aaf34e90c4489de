// 'declare variant' with device traits: ptxcc compiles device code from clang's host IR, where
// every call already names the host's choice. A variant for the device only (kind(gpu),
// kind(nohost), arch(nvptx64)) is taken on the device by ptxcc itself (lit/e2e/declare-variant.c);
// a selector the host matches too, isa(...), device traits mixed with other selector sets and
// 'begin declare variant' with device traits would silently run the wrong function: errors at
// their line. Other selectors, and omp.h's own kind(host) variant, are fine.
// RUN: not %ptxcc -fopenmp -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %ptxcc -fopenmp -DOTHER_SELECTORS -c %s -o /dev/null
// RUN: %ptxcc -fopenmp -DDEVICE_ONLY -c %s -o /dev/null
// CHECK: declare-variant.c:[[#@LINE+18]]:1: error: ptxcc does not support 'declare variant' selecting on a trait the host has (kind(host), kind(cpu), an x86 arch)
// CHECK-NEXT: declare-variant.c:[[#@LINE+20]]:1: error: ptxcc does not support 'declare variant' selecting on isa or another device trait ptxcc cannot evaluate
// CHECK-NEXT: declare-variant.c:[[#@LINE+22]]:1: error: ptxcc does not support 'declare variant' selecting on device traits together with other selector sets
// CHECK-NEXT: declare-variant.c:[[#@LINE+24]]:1: error: ptxcc does not support 'declare variant' blocks (begin declare variant) selecting on device traits (kind, arch, isa)
// CHECK-NEXT: 4 errors generated.
#include <omp.h>

int where_gpu(void) { return 1; }
int kind_of(void) { return 0; }
int isa_of(void) { return 0; }
int both(void) { return 0; }
#if defined(OTHER_SELECTORS)
#pragma omp declare variant(where_gpu) match(implementation = {vendor(llvm)})
int where(void) { return 0; }
#elif defined(DEVICE_ONLY)
#pragma omp declare variant(where_gpu) match(device = {arch(nvptx, nvptx64)})
int where(void) { return 0; }
#else
#pragma omp declare variant(where_gpu) match(device = {kind(host)})
int where(void) { return 0; }

#pragma omp declare variant(where_gpu) match(device = {isa(sm_90)})
int isa_is(void) { return 0; }

#pragma omp declare variant(where_gpu) match(device = {kind(gpu)}, implementation = {vendor(llvm)})
int mixed(void) { return 0; }

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
