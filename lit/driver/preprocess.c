// -E writes the preprocessed source to stdout or -o, macros expanded; -D, -U and -I take effect;
// OpenMP is on (_OPENMP), and -fopenacc defines _OPENACC as 201811.
// RUN: %ptxcc -E %s -DGREETING=hello -DFEATURE -I%S/Inputs | FileCheck %s
// RUN: %ptxcc -E %s -D GREETING=hello -D FEATURE -I %S/Inputs -o %t.i
// RUN: FileCheck %s < %t.i
// CHECK: # {{[0-9]+}} "{{.*}}preprocess.c"
// CHECK: const char *greeting = "hello";
// CHECK: int from_header = 7;
// CHECK: int openmp_version = {{20[0-9][0-9][0-9][0-9]}};
// CHECK: int feature = 1;
// CHECK-NOT: acc_version
//
// RUN: %ptxcc -E %s -DGREETING=hi -I%S/Inputs -DFEATURE -UFEATURE -fopenacc | FileCheck %s --check-prefix=ACC
// ACC: const char *greeting = "hi";
// ACC: int feature = 0;
// ACC: int acc_version = 201811;
//
// -P drops the line markers, -dM lists the macros.
// RUN: %ptxcc -E -P %s -DGREETING=x -I%S/Inputs | FileCheck %s --check-prefix=NOMARK
// NOMARK-NOT: # {{[0-9]+}} "
// RUN: %ptxcc -E -dM %s -DGREETING=x -I%S/Inputs | FileCheck %s --check-prefix=MACROS
// MACROS-DAG: #define GREETING x
// MACROS-DAG: #define _OPENMP {{20[0-9][0-9][0-9][0-9]}}
#include "header.h"
#define STR(x) #x
#define XSTR(x) STR(x)
const char *greeting = XSTR(GREETING);
int from_header = FROM_HEADER;
int openmp_version = _OPENMP;
#ifdef FEATURE
int feature = 1;
#else
int feature = 0;
#endif
#ifdef _OPENACC
int acc_version = _OPENACC;
#endif
