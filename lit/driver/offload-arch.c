// --offload-arch=sm_NN picks the PTX target (default sm_90) for clang's host compile and the
// passes; anything that is not sm_NN with NN >= 35 that LLVM 19 knows is an error.
// RUN: %ptxcc -### -c %s 2>&1 | FileCheck %s -DARCH=sm_90
// RUN: %ptxcc -### -c %s --offload-arch=sm_80 2>&1 | FileCheck %s -DARCH=sm_80
// RUN: %ptxcc -### -c %s --offload-arch=sm_35 2>&1 | FileCheck %s -DARCH=sm_35
// RUN: %ptxcc -### -c %s --offload-arch=sm_90a 2>&1 | FileCheck %s -DARCH=sm_90a
// RUN: %ptxcc -### -c %s --offload-arch=sm_70 --offload-arch=sm_70 2>&1 | FileCheck %s -DARCH=sm_70
// CHECK: "-fopenmp" "--offload-arch=[[ARCH]]" "--offload-host-only"
// CHECK: ptxcc: passes: compile_offload --offload-arch=[[ARCH]] -O0
// CHECK-NOT: --offload-arch
//
// RUN: not %ptxcc -c %s --offload-arch=sm_30 2>&1 | FileCheck %s --check-prefix=OLD
// OLD: ptxcc: error: invalid offload arch 'sm_30': expected sm_NN with NN >= 35 (e.g. --offload-arch=sm_90)
// RUN: not %ptxcc -c %s --offload-arch=gfx90a 2>&1 | FileCheck %s --check-prefix=AMD
// AMD: ptxcc: error: invalid offload arch 'gfx90a': expected sm_NN with NN >= 35 (e.g. --offload-arch=sm_90)
// RUN: not %ptxcc -c %s --offload-arch=sm_ 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: ptxcc: error: invalid offload arch 'sm_': expected sm_NN
// RUN: not %ptxcc -c %s --offload-arch=sm_36 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: ptxcc: error: unsupported offload arch 'sm_36': LLVM 19 targets sm_35, {{.*}}, sm_90, sm_90a
// RUN: not %ptxcc -c %s --offload-arch=sm_80 --offload-arch=sm_90 2>&1 | FileCheck %s --check-prefix=TWO
// TWO: ptxcc: error: only one --offload-arch is supported (got sm_80 and sm_90)
// RUN: not %ptxcc -c %s -fopenmp-targets=nvptx64-nvidia-cuda 2>&1 | FileCheck %s --check-prefix=TARGETS
// TARGETS: ptxcc: error: '-fopenmp-targets=nvptx64-nvidia-cuda' is not supported: ptxcc builds the offload code itself; choose the GPU with --offload-arch=sm_XX
// RUN: not %ptxcc -c %s --offload-device-only 2>&1 | FileCheck %s --check-prefix=DEVONLY
// DEVONLY: ptxcc: error: '--offload-device-only' is not supported
int f(void) { return 0; }
