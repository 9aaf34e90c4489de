// The main job: examples/saxpy.c built by ptxcc runs its offload region (on the GPU, or on the
// emulator when there is none) with host fallback forbidden, and matches the serial answer.
// REQUIRES: libptxrt
// RUN: %ptxcc -O2 %S/../../examples/saxpy.c -o %t
// RUN: %run %t | FileCheck %s
// RUN: %run %t 1000 | FileCheck %s
// RUN: %ptxcc -O0 %S/../../examples/saxpy.c -o %t.O0
// RUN: %run %t.O0 4097 | FileCheck %s
// CHECK: PASS
