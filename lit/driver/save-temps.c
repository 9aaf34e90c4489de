// -save-temps keeps the intermediates in the working directory (=obj: next to the output), named
// after the source; without it nothing is left behind.
// RUN: rm -rf %t && mkdir -p %t/obj && cd %t
// RUN: %ptxcc -save-temps -c %s
// RUN: ls | FileCheck %s
// CHECK: save-temps.host.bc
// CHECK-NEXT: save-temps.host.ll
// CHECK-NEXT: save-temps.i
// CHECK-NEXT: save-temps.o
// RUN: FileCheck %s --check-prefix=PRE < save-temps.i
// PRE: int keep_me(void)
// RUN: FileCheck %s --check-prefix=IR < save-temps.host.ll
// IR: define {{.*}}i32 @keep_me()
//
// A link keeps the object too.
// RUN: rm -rf %t && mkdir -p %t/obj && cd %t
// RUN: %ptxcc -save-temps -c %s -o obj/x.o
// RUN: ls | FileCheck %s --check-prefix=CWD
// CWD: obj
// CWD-NEXT: save-temps.host.bc
// CWD-NEXT: save-temps.host.ll
// CWD-NEXT: save-temps.i
// CWD-NOT: save-temps.o
//
// RUN: rm -rf %t && mkdir -p %t/obj && cd %t
// RUN: %ptxcc -save-temps=obj -c %s -o obj/x.o
// RUN: ls obj | FileCheck %s --check-prefix=OBJ
// OBJ: save-temps.host.bc
// OBJ-NEXT: save-temps.host.ll
// OBJ-NEXT: save-temps.i
// OBJ-NEXT: x.o
//
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %ptxcc -c %s
// RUN: ls | FileCheck %s --check-prefix=NONE
// NONE-NOT: save-temps.i
// NONE: save-temps.o
// NONE-NOT: save-temps.host
int keep_me(void) { return 1; }
