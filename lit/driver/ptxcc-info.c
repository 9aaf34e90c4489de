// -fptxcc-info never reaches clang; under -fopenacc it prints the front end's per-loop report
// (file:line: what was decided) on stderr, and nothing without it.
// RUN: %ptxcc -### -fptxcc-info -c %s 2>&1 | FileCheck %s
// CHECK: "-E"
// CHECK-NOT: "-fptxcc-info"
// RUN: %ptxcc -fptxcc-info -c %s -o %t.o
// RUN: llvm-nm %t.o | FileCheck %s --check-prefix=OBJ
// OBJ: T f
//
// RUN: %ptxcc -fopenacc -fptxcc-info -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=REPORT
// REPORT: ptxcc-info.c:[[@LINE+7]]: loop
// RUN: %ptxcc -fopenacc -c %s -o %t.o 2>&1 | count 0
// RUN: %ptxcc -fptxcc-info -c %s -o %t.o 2>&1 | count 0
void f(int n, float *a) {
#ifdef _OPENACC
#pragma acc parallel loop copy(a[0:n])
#endif
  for (int i = 0; i < n; i++)
    a[i] += 1.0f;
}
