// -fopenacc is accepted: _OPENACC is defined as 201811 and the directive front end runs on the
// preprocessed source (in process); -fopenacc-print=omp prints that front end's output and stops.
// RUN: %ptxcc -### -fopenacc -c %s 2>&1 | FileCheck %s
// CHECK: "-E" "-fopenmp" {{.*}}"-D_OPENACC=201811" {{.*}}"-dD"
// CHECK: ptxcc: openacc: {{.*}}openacc-flags.i -> {{.*}}openacc-flags.omp.i (in process)
// CHECK: "--offload-host-only" {{.*}}openacc-flags.omp.i" "-o" "{{.*}}openacc-flags.hostir.bc"
// CHECK-NOT: "-fopenacc"
//
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %ptxcc -fopenacc -c %s
// RUN: llvm-nm openacc-flags.o | FileCheck %s --check-prefix=OBJ
// OBJ: T acc_version
// RUN: %ptxcc -fopenacc -save-temps -c %s
// RUN: ls | FileCheck %s --check-prefix=TEMPS
// TEMPS: openacc-flags.i
// TEMPS-NEXT: openacc-flags.o
// TEMPS-NEXT: openacc-flags.omp.i
//
// RUN: %ptxcc -fopenacc-print=omp %s | FileCheck %s --check-prefix=PRINT
// RUN: %ptxcc -fopenacc-print=omp %s -o printed.c
// RUN: FileCheck %s --check-prefix=PRINT < printed.c
// PRINT: int acc_version(void) { return 201811; }
//
// Without -fopenacc, _OPENACC is not defined and no translation runs.
// RUN: %ptxcc -### -c %s 2>&1 | FileCheck %s --check-prefix=NOACC
// NOACC-NOT: _OPENACC
// NOACC-NOT: ptxcc: openacc
#ifdef _OPENACC
int acc_version(void) { return _OPENACC; }
#endif
