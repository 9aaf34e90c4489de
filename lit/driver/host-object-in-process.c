// The host object made in process (stages/host_object.rs, native/host_codegen.cpp) is the object
// clang -c makes from the same bitcode: the same instructions, sections (constructors, with and
// without a priority, in .init_array; the destructor in .fini_array) and symbols, at -O2, -O3
// without PIC and -O0. PTXCC_CLANG (naming the clang to run) makes ptxcc use clang -c, which is
// how the test gets clang's object. The programs run their constructors, the region and the
// destructor in order. A warning LLVM reports while it works sends the module to clang, which
// prints it once (-Wframe-larger-than).
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %ptxcc -v -O2 -c %s -o in.o 2>&1 | FileCheck %s --check-prefix=VERBOSE
// VERBOSE: ptxcc: host object: default<O2> and x86-64 code generation -> in.o (in process)
// VERBOSE-NOT: "-c" {{.*}}host.bc"
// RUN: env PTXCC_CLANG=%clang %ptxcc -v -O2 -c %s -o clang.o 2>&1 | FileCheck %s --check-prefix=CLANG
// CLANG: ptxcc: host object by clang -c: PTXCC_CLANG names the clang to use
// CLANG: "-c" "-O2" {{.*}}host.bc" "-o" "clang.o"
// RUN: %python %S/Inputs/same_objects.py in.o clang.o | FileCheck %s --check-prefix=SAME
// SAME: same instructions, sections and symbols: {{[1-9][0-9]*}} instructions; .fini_array .init_array .init_array.101
// RUN: %ptxcc -O3 -fno-pic -c %s -o in3.o
// RUN: env PTXCC_CLANG=%clang %ptxcc -O3 -fno-pic -c %s -o clang3.o
// RUN: %python %S/Inputs/same_objects.py in3.o clang3.o | FileCheck %s --check-prefix=SAME
// RUN: %ptxcc -c %s -o in0.o
// RUN: env PTXCC_CLANG=%clang %ptxcc -c %s -o clang0.o
// RUN: %python %S/Inputs/same_objects.py in0.o clang0.o | FileCheck %s --check-prefix=SAME
// RUN: %ptxcc in.o -o in && %run ./in | FileCheck %s --check-prefix=OUT
// RUN: %ptxcc clang.o -o clang && %run ./clang | FileCheck %s --check-prefix=OUT
// RUN: %ptxcc in3.o -no-pie -o in3 && %run ./in3 | FileCheck %s --check-prefix=OUT
// RUN: %ptxcc in0.o -o in0 && %run ./in0 | FileCheck %s --check-prefix=OUT
// OUT: ctor 101
// OUT-NEXT: ctor default
// OUT-NEXT: region 499500
// OUT-NEXT: dtor
// RUN: %ptxcc -O2 -c -DBIG_FRAME -Wframe-larger-than=1024 %s -o big.o 2>&1 | FileCheck %s --check-prefix=FRAME
// FRAME-COUNT-1: warning: {{.*}}stack frame size ({{[0-9]+}}) exceeds limit (1024) in function 'big_frame'
// FRAME-NOT: exceeds limit
// RUN: llvm-nm big.o | FileCheck %s --check-prefix=BIGSYM
// BIGSYM: T big_frame
#include <stdio.h>

static long total;

__attribute__((constructor(101))) static void early(void) { printf("ctor 101\n"); }
__attribute__((constructor)) static void later(void) { printf("ctor default\n"); }
__attribute__((destructor)) static void last(void) {
  printf("dtor\n");
  fflush(stdout);
}

#ifdef BIG_FRAME
void big_frame(volatile char *out) {
  volatile char buffer[4096];
  for (int i = 0; i < 4096; i++)
    buffer[i] = (char)i;
  *out = buffer[4095];
}
#endif

int main(void) {
  long sum = 0;
#pragma omp target teams distribute parallel for reduction(+ : sum) map(tofrom : sum)
  for (long i = 0; i < 1000; i++)
    sum += i;
  total = sum;
  printf("region %ld\n", total);
  return total == 499500 ? 0 : 1;
}
