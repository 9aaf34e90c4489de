// Without -g the host IR is compiled with line tables (for the passes' diagnostics) that are
// stripped afterwards; -g keeps full debug information; -g0 after -g turns it off again.
// RUN: %ptxcc -### -c %s 2>&1 | FileCheck %s --check-prefix=NOG
// NOG: "--offload-host-only" {{.*}}"-gline-tables-only" "-c" "-emit-llvm"
// NOG: compile_offload --offload-arch=sm_90 -O0 {{[^ ]*}}debug.hostir.bc
// RUN: %ptxcc --emit=host-ir %s -o - | FileCheck %s --check-prefix=STRIPPED
// STRIPPED-NOT: !DICompileUnit
// STRIPPED-NOT: !dbg
//
// RUN: %ptxcc -### -c %s -g 2>&1 | FileCheck %s --check-prefix=G
// G: "--offload-host-only" {{.*}}"-g" "-c" "-emit-llvm"
// G: compile_offload --offload-arch=sm_90 -O0 -g
// G: "-c" "-g"
// RUN: %ptxcc --emit=host-ir %s -g -o - | FileCheck %s --check-prefix=KEPT
// KEPT: !DICompileUnit(
// KEPT-SAME: emissionKind: FullDebug
// KEPT: !DISubprogram(name: "twice"
// KEPT: !DILocalVariable(name: "x"
//
// RUN: %ptxcc -c %s -g -o %t.o
// RUN: llvm-dwarfdump --debug-info %t.o | FileCheck %s --check-prefix=DWARF
// DWARF: DW_AT_name ("twice")
// RUN: %ptxcc -c %s -o %t.nog.o
// RUN: llvm-dwarfdump --debug-info %t.nog.o | FileCheck %s --check-prefix=NODWARF
// NODWARF-NOT: DW_TAG_subprogram
//
// RUN: %ptxcc --emit=host-ir %s -g -g0 -o - | FileCheck %s --check-prefix=STRIPPED
int twice(int x) { return 2 * x; }
