// -O<n> reaches every clang step, the passes and the host object (made in process at -O0, -O2,
// -O3, -Os and -Oz with the level's pipeline, by clang -c at -O1 and -Ofast: host_object.rs);
// -O0 keeps clang from marking functions optnone (the passes optimise device code themselves).
// No -O is clang's -O0.
// RUN: %ptxcc -### -c %s 2>&1 | FileCheck %s --check-prefix=O0
// RUN: %ptxcc -### -c %s -O0 2>&1 | FileCheck %s --check-prefix=O0
// O0: "--offload-host-only" {{.*}}"-Xclang" "-disable-O0-optnone" "-Xclang" "-disable-llvm-passes"
// O0: compile_offload --offload-arch=sm_90 -O0
// O0: ptxcc: host object: default<O0> and x86-64 code generation -> {{.*}} (in process)
//
// RUN: %ptxcc -### -c %s -O1 2>&1 | FileCheck %s --check-prefix=O1 -DFLAG=-O1
// RUN: %ptxcc -### -c %s -O 2>&1 | FileCheck %s --check-prefix=O1 -DFLAG=-O
// RUN: %ptxcc -### -c %s -Og 2>&1 | FileCheck %s --check-prefix=O1 -DFLAG=-Og
// O1: "-E" "-fopenmp" {{.*}}"[[FLAG]]"
// O1: "--offload-host-only" "[[FLAG]]" "-Xclang" "-disable-llvm-passes"
// O1: compile_offload --offload-arch=sm_90 -O1 {{.*}}
// O1: ptxcc: host object by clang -c: [[FLAG]]
// O1: "-c" "[[FLAG]]"
//
// RUN: %ptxcc -### -c %s -O2 2>&1 | FileCheck %s --check-prefix=O2 -DFLAG=-O2 -DLEVEL=O2
// RUN: %ptxcc -### -c %s -Os 2>&1 | FileCheck %s --check-prefix=O2 -DFLAG=-Os -DLEVEL=Os
// RUN: %ptxcc -### -c %s -Oz 2>&1 | FileCheck %s --check-prefix=O2 -DFLAG=-Oz -DLEVEL=Oz
// RUN: %ptxcc -### -c %s -O3 -O2 2>&1 | FileCheck %s --check-prefix=O2 -DFLAG=-O2 -DLEVEL=O2
// O2: "--offload-host-only" "[[FLAG]]" "-Xclang" "-disable-llvm-passes"
// O2: compile_offload --offload-arch=sm_90 -O2 {{.*}}
// O2: ptxcc: host object: default<[[LEVEL]]> and x86-64 code generation -> {{.*}} (in process)
// O2-NOT: "-c" "[[FLAG]]"
//
// RUN: %ptxcc -### -c %s -O3 2>&1 | FileCheck %s --check-prefixes=O3,O3IN -DFLAG=-O3
// RUN: %ptxcc -### -c %s -O4 2>&1 | FileCheck %s --check-prefixes=O3,O3IN -DFLAG=-O3
// RUN: %ptxcc -### -c %s -Ofast 2>&1 | FileCheck %s --check-prefixes=O3,O3CLANG -DFLAG=-Ofast
// O3: "--offload-host-only" "[[FLAG]]" "-Xclang" "-disable-llvm-passes"
// O3: compile_offload --offload-arch=sm_90 -O3 {{.*}}
// O3IN: ptxcc: host object: default<O3> and x86-64 code generation -> {{.*}} (in process)
// O3CLANG: ptxcc: host object by clang -c: -Ofast
// O3CLANG: "-c" "[[FLAG]]"
//
// The optimisation really happens in the object step: at -O2 the loop below is folded away.
// RUN: %ptxcc -S -O2 %s -o - | FileCheck %s --check-prefix=FOLD
// FOLD-LABEL: sum_to_ten:
// FOLD: movl $55, %eax
//
// RUN: not %ptxcc -c %s -Ox 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: ptxcc: error: invalid optimization level '-Ox' (expected -O0, -O1, -O2, -O3, -Os, -Oz or -Ofast)
int sum_to_ten(void) {
  int s = 0;
  for (int i = 1; i <= 10; i++)
    s += i;
  return s;
}
