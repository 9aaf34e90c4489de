// -fptxcc-time-report prints, on standard error once ptxcc is done, where the compilation's
// time went: a table of the driver's stages (the clang runs, by what they do, and ptxcc's own
// in-process steps) and one of the offload pipeline's passes, each with user+system and wall
// time, the longest first, then the sum. Without the flag (or after -fno-…) nothing is printed,
// and the flag is not passed on to clang.
// RUN: %ptxcc -fptxcc-time-report -O2 -c %s -o %t.o 2>&1 | FileCheck %s
// CHECK: ptxcc driver stages
// CHECK: Total Execution Time: {{[0-9.]+}} seconds ({{[0-9.]+}} wall clock)
// CHECK: ---User+System--- ---Wall Time--- --- Name ---
// CHECK-DAG: preprocess (clang -E{{(, in process)?}})
// CHECK-DAG: host IR (clang -emit-llvm{{(, in process)?}})
// CHECK-DAG: host object (in process)
// CHECK-DAG: read host IR (in process)
// CHECK-DAG: offload passes (in process)
// CHECK: {{[0-9.]+}} (100.0%) {{[0-9.]+}} (100.0%) Total
// CHECK: ptxcc offload passes
// CHECK-DAG: device-extraction
// CHECK-DAG: kernel-formation
// CHECK-DAG: loop-mapping
// CHECK-DAG: optimize
// CHECK-DAG: nvptx-codegen
// CHECK-DAG: simt-lowering (emulator code)
// CHECK: (100.0%) {{[0-9.]+}} (100.0%) Total
// CHECK: ptxcc: total {{[0-9.]+}} seconds user+system ({{[0-9.]+}} wall clock), tools it ran included
// RUN: %ptxcc -fptxcc-time-report -fno-ptxcc-time-report -O2 -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=OFF --allow-empty
// OFF-NOT: Total
// RUN: %ptxcc -### -fptxcc-time-report -c %s 2>&1 | FileCheck %s --check-prefix=DRY
// DRY-NOT: "-fptxcc-time-report"
void scale(int n, double *x) {
#pragma omp target teams distribute parallel for map(tofrom : x[0:n])
  for (int i = 0; i < n; i++)
    x[i] *= 2;
}
