// -W flags reach clang: -Wall warns, -Werror makes it clang's error with clang's status, -w
// silences; clang's diagnostics name the user's file and line.
// RUN: %ptxcc -c %s -o %t.o 2>&1 | FileCheck %s --allow-empty --check-prefix=QUIET
// QUIET-NOT: warning
// RUN: %ptxcc -Wall -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=WALL
// WALL: warnings.c:[[@LINE+8]]:7: warning: unused variable 'unused' [-Wunused-variable]
// RUN: not %ptxcc -Wall -Werror -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=WERROR
// WERROR: warnings.c:[[@LINE+6]]:7: error: unused variable 'unused' [-Werror,-Wunused-variable]
// WERROR-NOT: ptxcc: error
// RUN: %python %S/Inputs/expect-status.py 1 -- %ptxcc -Wall -Werror -c %s -o %t.o
// RUN: %ptxcc -Wall -w -c %s -o %t.o 2>&1 | FileCheck %s --allow-empty --check-prefix=QUIET
// RUN: %ptxcc -Wunused-variable -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=WALL
int f(void) {
  int unused = 0;
  return 1;
}
