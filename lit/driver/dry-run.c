// -### prints the commands of every stage, the link included, and runs none of them.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %ptxcc -### -O2 %s -o %t/prog 2>&1 | FileCheck %s
// RUN: not ls %t/prog
//
// CHECK-NOT: ptxcc version
// CHECK: "-E" "-fopenmp" {{.*}}"-O2"
// CHECK: "--offload-host-only" "-O2"
// CHECK: ptxcc: passes: compile_offload --offload-arch=sm_90 -O2 {{.*}}dry-run.hostir.bc -> {{.*}}dry-run.host.bc (in process)
// CHECK: ptxcc: host object: default<O2> and x86-64 code generation -> [[OBJ:[^ ]*dry-run.o]] (in process)
// CHECK: "-fopenmp" "-O2" "[[OBJ]]" "{{[^"]*}}libptxrt.a" "-lpthread" "-ldl" "-lm" {{.*}}"-o" "{{[^"]*}}/prog"
int main(void) { return 0; }
