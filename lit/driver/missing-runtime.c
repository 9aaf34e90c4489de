// Linking needs libptxrt.a: next to the ptxcc executable, or named by PTXCC_RUNTIME_LIB.
// RUN: rm -rf %t && mkdir -p %t/bin
// RUN: cp %ptxcc %t/bin/ptxcc
// RUN: not %t/bin/ptxcc %s -o %t/prog 2>&1 | FileCheck %s
// CHECK: ptxcc: error: cannot find libptxrt.a next to {{.*}}/bin/ptxcc ; build it with 'cargo build --release' or set PTXCC_RUNTIME_LIB
// RUN: not ls %t/prog
//
// -c does not need the runtime.
// RUN: %t/bin/ptxcc -c %s -o %t/x.o
//
// RUN: not env PTXCC_RUNTIME_LIB=%t/none.a %ptxcc %s -o %t/prog 2>&1 | FileCheck %s --check-prefix=ENV
// ENV: ptxcc: error: PTXCC_RUNTIME_LIB names '{{.*}}none.a', which does not exist
//
// PTXCC_RUNTIME_LIB is what gets linked.
// REQUIRES: libptxrt
// RUN: cp %libptxrt %t/renamed.a
// RUN: env PTXCC_RUNTIME_LIB=%t/renamed.a %ptxcc -### %s -o %t/prog 2>&1 | FileCheck %s --check-prefix=USED
// USED: "{{[^"]*}}/renamed.a" "-lpthread"
// RUN: env PTXCC_RUNTIME_LIB=%t/renamed.a %t/bin/ptxcc %s -o %t/prog
// RUN: %t/prog
int main(void) { return 0; }
