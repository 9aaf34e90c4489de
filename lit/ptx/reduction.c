// A sum reduction on a combined construct: warp shuffles, a shared-memory stage between warps,
// and one native atomic per block; no call in the kernel.
// RUN: %ptxcc -fopenmp -O2 --emit=ptx %s -o - | FileCheck %s
// CHECK: .visible .entry __omp_offloading_{{.*}}_dot_l[[#@LINE+9]](
// CHECK-NOT: call
// CHECK-DAG: shfl.sync.down.b32
// CHECK-DAG: bar.sync 0
// CHECK-DAG: atom.global.add.f64
// RUN: %ptxcc -fopenmp -O2 --emit=ptx %s -o - | grep -c atom.global | FileCheck %s --check-prefix=ONE
// ONE: {{^1$}}
double dot(int n, const double *x, const double *y) {
  double s = 0;
#pragma omp target teams distribute parallel for map(to: x[0:n], y[0:n]) reduction(+: s)
  for (int i = 0; i < n; i++)
    s += x[i] * y[i];
  return s;
}
