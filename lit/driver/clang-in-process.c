// clang's front end runs in ptxcc's process (driver/src/clang_in_process.rs,
// driver/native/clang_frontend.cpp): the preprocessor and the host IR are made without a clang
// process (-fptxcc-time-report names them "…, in process"), with the same object and the same
// diagnostics as clang run as a process, which PTXCC_CLANG_IN_PROCESS=0 asks for.
// RUN: %ptxcc -fopenmp -O2 -c %s -o %t.o -fptxcc-time-report 2>&1 | FileCheck %s --check-prefix=TIME
// TIME-DAG: preprocess (clang -E, in process)
// TIME-DAG: host IR (clang -emit-llvm, in process)
// RUN: env PTXCC_CLANG_IN_PROCESS=0 %ptxcc -fopenmp -O2 -c %s -o %t.process.o -fptxcc-time-report 2>&1 | FileCheck %s --check-prefix=PROCESS
// PROCESS-NOT: , in process)
// PROCESS: host object (in process)
// PROCESS-NOT: , in process)
// RUN: cmp %t.o %t.process.o
// With -g the object names the headers clang found: the resource directory is clang's own (the
// driver is given the executable's real path, as a clang process reads /proc/self/exe).
// RUN: %ptxcc -fopenmp -O2 -g -c %s -o %t.g.o
// RUN: env PTXCC_CLANG_IN_PROCESS=0 %ptxcc -fopenmp -O2 -g -c %s -o %t.g.process.o
// RUN: cmp %t.g.o %t.g.process.o
//
// Errors and warnings of the source: the same text both ways, and the same failure.
// RUN: not %ptxcc -fopenmp -O2 -Wall -c -DBAD %s -o %t.bad.o 2> %t.in.txt
// RUN: not env PTXCC_CLANG_IN_PROCESS=0 %ptxcc -fopenmp -O2 -Wall -c -DBAD %s -o %t.bad.o 2> %t.process.txt
// RUN: diff %t.in.txt %t.process.txt
// RUN: FileCheck %s --check-prefix=BAD < %t.in.txt
// BAD: clang-in-process.c:[[#@LINE+15]]:{{[0-9]+}}: warning: unused variable 'unused'
// BAD: clang-in-process.c:[[#@LINE+17]]:{{[0-9]+}}: error: expected expression
// BAD: 1 warning and 1 error generated.
//
// The driver's own errors, as clang's driver prints them.
// RUN: not %ptxcc -fopenmp -c -fno-such-flag-for-clang %s -o %t.o 2>&1 | FileCheck %s --check-prefix=DRIVER
// DRIVER: error: unknown argument: '-fno-such-flag-for-clang'
int scale(double *x, int n) {
#pragma omp target teams distribute parallel for map(tofrom : x[0 : n])
  for (int i = 0; i < n; i++)
    x[i] *= 2.0;
  return n;
}
#ifdef BAD
int warned(void) {
  int unused = 1;
  return 0;
}
int broken(void) { return 1 + ; }
#endif
