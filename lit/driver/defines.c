// -D, -U, -I and -std reach the compilation, not only -E: the host IR shows their effect.
// RUN: %ptxcc --emit=host-ir %s -DVALUE=42 -I%S/Inputs -o - | FileCheck %s
// CHECK: define {{.*}}i32 @value()
// CHECK: ret i32 42
// CHECK: define {{.*}}i32 @header_value()
// CHECK: ret i32 7
// CHECK: define {{.*}}i64 @std_version()
// CHECK: ret i64 201710
//
// RUN: %ptxcc --emit=host-ir %s -DVALUE=42 -UVALUE -I%S/Inputs -std=c11 -o %t.ll
// RUN: FileCheck %s --check-prefix=U < %t.ll
// U: define {{.*}}i32 @value()
// U: ret i32 -1
// U: define {{.*}}i64 @std_version()
// U: ret i64 201112
//
// A header not on the search path is clang's error, with clang's status.
// RUN: not %ptxcc -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=NOINC
// NOINC: defines.c:{{[0-9]+}}:10: fatal error: 'header.h' file not found
// NOINC-NOT: ptxcc: error
#include "header.h"
#ifndef VALUE
#define VALUE -1
#endif
int value(void) { return VALUE; }
int header_value(void) { return FROM_HEADER; }
long std_version(void) { return __STDC_VERSION__; }
