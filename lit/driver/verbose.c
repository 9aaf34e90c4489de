// -v prints every stage's command before running it, in pipeline order, and the in-process pass
// stage as a line of its own; the object is still produced.
// RUN: rm -f %t.o
// RUN: %ptxcc -v -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: llvm-nm %t.o | FileCheck %s --check-prefix=OBJ
//
// CHECK: ptxcc version
// CHECK: clang: [[CLANG:.*]]
// CHECK: "[[CLANG]]" "-E" "-fopenmp" {{.*}}"{{[^"]*}}verbose.c" "-o" "[[TMP:[^"]*]]/verbose.i"
// CHECK-NEXT: "[[CLANG]]" "-fopenmp" "--offload-arch=sm_90" "--offload-host-only" {{.*}}"-Xclang" "-disable-llvm-passes" "-gline-tables-only" "-c" "-emit-llvm" "[[TMP]]/verbose.i" "-o" "[[TMP]]/verbose.hostir.bc"
// CHECK-NEXT: ptxcc: passes: compile_offload --offload-arch=sm_90 -O0 [[TMP]]/verbose.hostir.bc -> [[TMP]]/verbose.host.bc (in process)
// CHECK-NEXT: ptxcc: host object: default<O0> and x86-64 code generation -> {{.*}}verbose.c.tmp.o (in process)
// CHECK-NOT: "-fopenmp" {{.*}}libptxrt
//
// OBJ: T main
int main(void) { return 0; }
