// The loops -fopenmp-offload-parallel-for offloads are named to the passes (the driver's hints,
// `access_maps`), which table their access ranges without -fptxcc-multi-device, and the
// registration flags their kernels PTXRT_KERNEL_ACCESS_MAPS (emu_flags bit 2) with the table:
// the runtime maps their pointers without a visible extent by it. An explicit target construct
// gets neither: its pointers keep OpenMP's rules.
// RUN: %ptxcc -fopenmp -O2 -fopenmp-offload-parallel-for -fptxcc-info --emit=host-ir %s -o - 2> %t.info | FileCheck %s
// RUN: FileCheck %s --check-prefix=INFO < %t.info
// RUN: %ptxcc -fopenmp -O2 --emit=host-ir %s -o - | FileCheck %s --check-prefix=OFF

// CHECK: @__ptxcc.kaccesses = private constant [18 x i64]
// The kernel of f: 3 parameters, SPMD, emu_flags 4 (access maps), 0 combines, 18 table words.
// CHECK: @__ptxcc.kernels = {{.*}}_f_l[[@LINE+7]].region_id, {{.*}}, i32 3, i32 0, i32 4, i32 0, i32 0, i32 18, ptr null, ptr @__ptxcc.kaccesses,
// The kernel of g: emu_flags 0, no table.
// CHECK-SAME: _g_l{{[0-9]+}}.region_id, {{.*}}, i32 2, i32 0, i32 0, i32 0, i32 0, i32 0, ptr null, ptr null,
// CHECK: !ptxcc.driver_hints = !{![[V:[0-9]+]], ![[H:[0-9]+]]}
// CHECK: ![[H]] = !{!"access_maps", !"{{.*}}access-maps.c", i32 [[@LINE+3]]}
// INFO: access-maps.c:[[@LINE+2]]:1: access ranges of kernel '{{.*}}_f_l{{[0-9]+}}': argument 3: read [8*i, 8*i + 8); argument 2: written [8*i, 8*i + 8)
void f(double *y, const double *x, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    y[i] = x[i];
}
// INFO-NOT: access ranges of kernel '{{.*}}_g_l
void g(double *y, int n) {
#pragma omp target teams distribute parallel for map(tofrom : y[0:n])
  for (int i = 0; i < n; i++)
    y[i] = 1;
}
// OFF-NOT: access_maps
// OFF-NOT: __ptxcc.kaccesses
