// On a machine with an NVIDIA GPU, the main job runs on it through the CUDA driver API.
// REQUIRES: gpu, libptxrt
// RUN: %ptxcc -O2 %S/../../examples/saxpy.c -o %t
// RUN: env PTXRT_DEVICE=cuda %run %t | FileCheck %s
// RUN: env PTXRT_DEVICE=cuda %run %t 12345 | FileCheck %s
// CHECK: PASS
