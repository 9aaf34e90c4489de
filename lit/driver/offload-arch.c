// --offload-arch=sm_NN picks the PTX target (default sm_90) for clang's host compile and the
// passes; anything that is not sm_NN with NN >= 35 that LLVM 19 knows is an error.
// RUN: %ptxcc -### -c %s 2>&1 | FileCheck %s -DARCH=sm_90
// RUN: %ptxcc -### -c %s --offload-arch=sm_80 2>&1 | FileCheck %s -DARCH=sm_80
// RUN: %ptxcc -### -c %s --offload-arch=sm_35 2>&1 | FileCheck %s -DARCH=sm_35
// RUN: %ptxcc -### -c %s --offload-arch=sm_90a 2>&1 | FileCheck %s -DARCH=sm_90a
// RUN: %ptxcc -### -c %s --offload-arch=sm_70 --offload-arch=sm_70 2>&1 | FileCheck %s -DARCH=sm_70
// Several GPUs, as clang takes them (a list, or the flag repeated): one PTX for the oldest, which
// the driver JIT-compiles for the newer ones.
// RUN: %ptxcc -### -c %s --offload-arch=sm_80 --offload-arch=sm_90 2>&1 | FileCheck %s -DARCH=sm_80
// RUN: %ptxcc -### -c %s --offload-arch=sm_90,sm_75 2>&1 | FileCheck %s -DARCH=sm_75
// clang's own offload spellings are synonyms (Makefiles written for clang build unchanged).
// RUN: %ptxcc -### -c %s -fopenmp-targets=nvptx64-nvidia-cuda 2>&1 | FileCheck %s -DARCH=sm_90
// RUN: %ptxcc -### -c %s -fopenmp-targets=nvptx64 -Xopenmp-target -march=sm_80 2>&1 | FileCheck %s -DARCH=sm_80
// RUN: %ptxcc -### -c %s -fopenmp-targets=nvptx64 -Xopenmp-target=nvptx64-nvidia-cuda -march=sm_86 2>&1 | FileCheck %s -DARCH=sm_86
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
// RUN: not %ptxcc -c %s -fopenmp-targets=amdgcn-amd-amdhsa 2>&1 | FileCheck %s --check-prefix=TARGETS
// TARGETS: ptxcc: error: '-fopenmp-targets=amdgcn-amd-amdhsa': ptxcc offloads to NVIDIA GPUs only (nvptx64-nvidia-cuda), not 'amdgcn-amd-amdhsa'
// RUN: not %ptxcc -c %s -Xopenmp-target -ffast-math 2>&1 | FileCheck %s --check-prefix=XFLAG
// XFLAG: ptxcc: error: '-Xopenmp-target -ffast-math' is not supported: ptxcc passes only -march=sm_NN to the device compilation
// RUN: not %ptxcc -c %s --offload-device-only 2>&1 | FileCheck %s --check-prefix=DEVONLY
// DEVONLY: ptxcc: error: '--offload-device-only' is not supported
int f(void) { return 0; }
