// Inputs by kind: .c goes through the whole pipeline, .i skips the preprocessor, .ll/.bc start at
// the offload passes, .s is assembled, everything else is for the linker.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %ptxcc -E %s -o pre.i
// RUN: %ptxcc -### -c pre.i 2>&1 | FileCheck %s --check-prefix=PRE
// PRE-NOT: "-E"
// PRE: "--offload-host-only" {{.*}}"pre.i" "-o"
// RUN: %ptxcc -c pre.i
// RUN: llvm-nm pre.o | FileCheck %s --check-prefix=SYM
//
// RUN: %ptxcc --emit=host-ir %s -o host.ll
// RUN: %ptxcc -### -c host.ll 2>&1 | FileCheck %s --check-prefix=IR
// IR-NOT: "-E"
// IR-NOT: "-emit-llvm"
// IR: ptxcc: passes: compile_offload --offload-arch=sm_90 -O0 host.ll -> {{.*}}host.host.bc (in process)
// IR: ptxcc: host object: default<O0> and x86-64 code generation -> host.o (in process)
// RUN: %ptxcc -c host.ll
// RUN: llvm-nm host.o | FileCheck %s --check-prefix=SYM
// RUN: llvm-as host.ll -o host.bc
// RUN: %ptxcc -c host.bc -o frombc.o
// RUN: llvm-nm frombc.o | FileCheck %s --check-prefix=SYM
//
// RUN: %ptxcc -S %s -o asm.s
// RUN: %ptxcc -c asm.s -o fromasm.o
// RUN: llvm-nm fromasm.o | FileCheck %s --check-prefix=SYM
//
// -x c makes any name a C source.
// RUN: cp %s source.txt
// RUN: %ptxcc -c -x c source.txt -o fromtxt.o
// RUN: llvm-nm fromtxt.o | FileCheck %s --check-prefix=SYM
// SYM: T kinds
int kinds(void) { return 0; }
