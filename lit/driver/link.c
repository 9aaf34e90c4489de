// Without -c, ptxcc compiles every source and links the objects, the .o/.a inputs and the
// runtime into an executable (a.out by default).
// REQUIRES: libptxrt
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %ptxcc -c %S/Inputs/helper.c -o helper.o
// RUN: %ptxcc %s helper.o
// RUN: ./a.out | FileCheck %s
// RUN: %ptxcc -O2 %s helper.o -o prog
// RUN: ./prog | FileCheck %s
//
// Two sources in one call; the order of inputs is kept on the link line.
// RUN: %ptxcc %s %S/Inputs/helper.c -o prog2
// RUN: ./prog2 | FileCheck %s
//
// An archive.
// RUN: llvm-ar rcs libhelper.a helper.o
// RUN: %ptxcc %s libhelper.a -o prog3
// RUN: ./prog3 | FileCheck %s
// RUN: %ptxcc %s -L. -lhelper -o prog4
// RUN: ./prog4 | FileCheck %s
//
// CHECK: helper(4) = 13
#include <stdio.h>
int helper_value(int);
int main(void) {
  printf("helper(4) = %d\n", helper_value(4));
  return 0;
}
