// Errors in the program are clang's: its message with the user's file:line:col (from the line
// markers of the preprocessed file), and clang's exit status, not a ptxcc error.
// RUN: not %ptxcc -c %s -o %t.o 2>&1 | FileCheck %s
// CHECK: clang-errors.c:[[@LINE+12]]:11: error: expected ';' after return statement
// CHECK-NOT: ptxcc: error
// RUN: %python %S/Inputs/expect-status.py 1 -- %ptxcc -c %s -o %t.o
// RUN: not %ptxcc %s -o %t.exe 2>&1 | FileCheck %s
// RUN: not %ptxcc -fsyntax-only %s 2>&1 | FileCheck %s
//
// Whatever status clang exits with is ptxcc's: a stand-in clang that fails with 42.
// RUN: %python %S/Inputs/expect-status.py 42 -- env PTXCC_CLANG=%S/Inputs/fake-clang.sh %ptxcc -c %s -o %t.o
// RUN: not env PTXCC_CLANG=%S/Inputs/fake-clang.sh %ptxcc -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=FAKE
// FAKE: fake-clang: error: deliberately failing
// FAKE-NOT: ptxcc: error
int broken(void) {
  return 1
}
