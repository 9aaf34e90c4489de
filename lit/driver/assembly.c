// -S without --emit writes host assembly like clang (NAME.s, or -o; -o - is standard output);
// -S -emit-llvm writes the host IR text, -c -emit-llvm bitcode.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %ptxcc -S -O1 %s
// RUN: FileCheck %s < assembly.s
// RUN: %ptxcc -S %s -o - | FileCheck %s
// CHECK: .text
// CHECK: add_one:
// RUN: %ptxcc -S -emit-llvm %s
// RUN: FileCheck %s --check-prefix=LL < assembly.ll
// LL: define {{.*}}i32 @add_one(
// RUN: %ptxcc -c -emit-llvm %s
// RUN: llvm-dis assembly.bc -o - | FileCheck %s --check-prefix=LL
int add_one(int x) { return x + 1; }
