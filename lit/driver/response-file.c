// @file arguments are read as more arguments, as clang and the build tools that use them expect.
// RUN: rm -rf %t && mkdir -p %t
// RUN: echo "-DFROM_RSP=5 '-DQUOTED=1 + 1' -c" > %t/args.rsp
// RUN: %ptxcc @%t/args.rsp %s -o %t/x.o
// RUN: not %ptxcc @%t/args.rsp --emit=host-ir %s -o - 2>&1 | FileCheck %s --check-prefix=EMITC
// EMITC: ptxcc: error: '--emit=host-ir' cannot be combined with '-c'
// RUN: echo "-DFROM_RSP=5 '-DQUOTED=1 + 1'" > %t/defs.rsp
// RUN: %ptxcc @%t/defs.rsp --emit=host-ir %s -o - | FileCheck %s
// CHECK: ret i32 5
// CHECK: ret i32 2
int from_rsp(void) { return FROM_RSP; }
int quoted(void) { return QUOTED; }
