// printf in a target region calls CUDA's vprintf(format, buffer) in the PTX: the promoted
// arguments (int, double, pointer) packed at their natural alignment in a local buffer.
// RUN: %ptxcc -fopenmp -O2 --emit=ptx %s -o - | FileCheck %s
// CHECK: .extern .func  (.param .b32 func_retval0) vprintf
// CHECK: .entry __omp_offloading_{{.*}}_f_l{{[0-9]+}}(
// CHECK: st.local.u32 [{{%rd[0-9]+}}], {{%rd?[0-9]+}};
// CHECK: st.local.f64 [{{%rd[0-9]+}}+8], {{%fd[0-9]+}};
// CHECK: st.local.u64 [{{%rd[0-9]+}}+16], {{%rd[0-9]+}};
// CHECK: call.uni (retval0),
// CHECK-NEXT: vprintf,
void f(int n, double x, const char *s) {
#pragma omp target map(to : s[0:4])
  __builtin_printf("%d %f %s\n", n, (float)x, s);
}
