// The PTX of a combined construct: one .entry per region for the chosen architecture, global
// loads and stores, an fma, and no call left (no runtime in the kernel). The loop is a
// grid-stride loop: every thread reads its block and thread index and the grid's size.
// RUN: %ptxcc -fopenmp -O2 --emit=ptx %s -o - | FileCheck %s
// RUN: %ptxcc -fopenmp -O2 --offload-arch=sm_80 --emit=ptx %s -o - | FileCheck %s --check-prefix=SM80
// CHECK: .version {{[0-9]+\.[0-9]+}}
// CHECK: .target sm_90
// CHECK: .address_size 64
// CHECK: .visible .entry __omp_offloading_{{.*}}_saxpy_l[[#@LINE+11]](
// CHECK-NOT: call
// CHECK-DAG: mov.u32 {{.*}}%tid.x
// CHECK-DAG: mov.u32 {{.*}}%ntid.x
// CHECK-DAG: mov.u32 {{.*}}%ctaid.x
// CHECK-DAG: mov.u32 {{.*}}%nctaid.x
// CHECK: ld.global.f32
// CHECK: fma.rn.f32
// CHECK: st.global.f32
// SM80: .target sm_80
void saxpy(int n, float a, const float *x, float *y) {
#pragma omp target teams distribute parallel for map(to: x[0:n]) map(tofrom: y[0:n])
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}
