// -fptxcc-info is accepted (reserved for per-loop offload reports) and never reaches clang.
// RUN: %ptxcc -### -fptxcc-info -c %s 2>&1 | FileCheck %s
// CHECK: "-E"
// CHECK-NOT: "-fptxcc-info"
// RUN: %ptxcc -fptxcc-info -c %s -o %t.o
// RUN: llvm-nm %t.o | FileCheck %s --check-prefix=OBJ
// OBJ: T f
int f(void) { return 0; }
