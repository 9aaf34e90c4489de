// --emit=host-ir writes the host module after the offload passes, as LLVM IR text: to -o, to
// standard output with -o -, or to NAME.host.ll; nothing else is produced.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %ptxcc --emit=host-ir -O2 %s -o out.ll
// RUN: FileCheck %s < out.ll
// RUN: %ptxcc --emit=host-ir %s
// RUN: FileCheck %s < emit-host-ir.host.ll
// RUN: %ptxcc --emit=host-ir %s -o - | FileCheck %s
// RUN: ls | FileCheck %s --check-prefix=FILES
// CHECK: target triple = "x86_64
// CHECK: define {{.*}}@host_function(
// FILES-NOT: .o
// FILES: emit-host-ir.host.ll
// FILES-NEXT: out.ll
// FILES-NOT: .o
//
// --emit does not combine with -c, -S or -E, and takes ptx, device-ir or host-ir.
// RUN: not %ptxcc --emit=host-ir -c %s 2>&1 | FileCheck %s --check-prefix=WITHC
// WITHC: ptxcc: error: '--emit=host-ir' cannot be combined with '-c'
// RUN: not %ptxcc --emit=ptx -S %s 2>&1 | FileCheck %s --check-prefix=WITHS
// WITHS: ptxcc: error: '--emit=ptx' cannot be combined with '-S'
// RUN: not %ptxcc --emit=device-ir -E %s 2>&1 | FileCheck %s --check-prefix=WITHE
// WITHE: ptxcc: error: '--emit=device-ir' cannot be combined with '-E'
// RUN: not %ptxcc --emit=asm %s 2>&1 | FileCheck %s --check-prefix=VALUE
// VALUE: ptxcc: error: invalid value 'asm' in '--emit=': expected ptx, device-ir or host-ir
// RUN: not %ptxcc --emit %s 2>&1 | FileCheck %s --check-prefix=NOVALUE
// NOVALUE: ptxcc: error: '--emit' needs a value: --emit=ptx, --emit=device-ir or --emit=host-ir
// RUN: not %ptxcc --emit=host-ir %s %S/Inputs/helper.c -o both.ll 2>&1 | FileCheck %s --check-prefix=MULTI
// MULTI: ptxcc: error: cannot specify -o when generating multiple output files
// RUN: echo "nop" > %t/x.s
// RUN: not %ptxcc --emit=ptx %t/x.s 2>&1 | FileCheck %s --check-prefix=ASM
// ASM: ptxcc: error: '{{.*}}x.s': --emit=ptx needs a C source or LLVM IR
int host_function(int x) { return x + 1; }
