// examples/saxpy.c with full debug information (-g) builds and runs like without it (clang then
// outlines each target region as a `..._debug__` function plus a wrapper).
// REQUIRES: libptxrt
// RUN: %ptxcc -O2 -g %S/../../examples/saxpy.c -o %t
// RUN: %run %t 4097 | FileCheck %s
// RUN: %ptxcc -O0 -g %S/../../examples/saxpy.c -o %t.O0
// RUN: %run %t.O0 4097 | FileCheck %s
// CHECK: PASS
