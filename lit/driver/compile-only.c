// -c makes an object: named after the source in the working directory, or -o's name; several
// sources make one object each; -o with several sources is an error, as in clang.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %ptxcc -c %s
// RUN: llvm-nm compile-only.o | FileCheck %s
// RUN: %ptxcc -c %s -o named.o
// RUN: llvm-nm named.o | FileCheck %s
// RUN: %ptxcc -c %s %S/Inputs/helper.c
// RUN: llvm-nm helper.o | FileCheck %s --check-prefix=HELPER
// RUN: not %ptxcc -c %s %S/Inputs/helper.c -o both.o 2>&1 | FileCheck %s --check-prefix=MULTI
// RUN: not ls both.o
//
// An object given with -c is not used, as clang warns.
// RUN: %ptxcc -c %s named.o -o again.o 2>&1 | FileCheck %s --check-prefix=UNUSED
//
// CHECK: T main
// HELPER: T helper_value
// MULTI: ptxcc: error: cannot specify -o when generating multiple output files
// UNUSED: ptxcc: warning: named.o: 'linker' input unused
int main(void) { return 0; }
