// -MD/-MMD write the make dependencies next to the object, naming the object as the target (as
// clang does), even though ptxcc preprocesses separately; -MF/-MT choose them; -M lists them.
// RUN: rm -rf %t && mkdir -p %t/sub && cd %t
// RUN: %ptxcc -MD -c %s -I%S/Inputs -o sub/x.o
// RUN: FileCheck %s < sub/x.d
// CHECK: sub/x.o: {{.*}}dependencies.c
// CHECK: Inputs/header.h
// RUN: %ptxcc -MMD -MP -MF deps.mk -MT mytarget -c %s -I%S/Inputs
// RUN: FileCheck %s --check-prefix=NAMED < deps.mk
// NAMED: mytarget: {{.*}}dependencies.c
// NAMED: header.h:
// RUN: %ptxcc -M %s -I%S/Inputs | FileCheck %s --check-prefix=LIST
// LIST: dependencies.o: {{.*}}dependencies.c
// LIST: header.h
#include "header.h"
int f(void) { return FROM_HEADER; }
