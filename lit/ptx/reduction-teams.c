// A teams-level reduction over an inner parallel loop (clang's blocking __kmpc_reduce, whose
// atomic branch ends in __kmpc_end_reduce) keeps the whole grid: one native atomic per block,
// not a single-team launch.
// RUN: %ptxcc -fopenmp -O2 -c %s -o /dev/null -fptxcc-info 2>&1 | FileCheck %s --check-prefix=INFO
// INFO: reduction-teams.c:[[#@LINE+10]]:1: target region compiled to kernel {{.*}}: teams → blocks of the grid, parallel threads → threads of each block
// INFO-NOT: the region runs as one team
// INFO: reduction-teams.c:[[#@LINE+8]]:{{[0-9]+}}: reduction: the block's value added by thread 0 with one atomic per block
// RUN: %ptxcc -fopenmp -O2 --emit=ptx %s -o - | FileCheck %s
// CHECK: .visible .entry __omp_offloading_{{.*}}_rowsums_l[[#@LINE+6]](
// CHECK-NOT: call
// CHECK: atom.global.add.f64
// CHECK-NOT: atom.global
double rowsums(int n, const double *a) {
  double all = 0;
#pragma omp target teams distribute reduction(+: all) map(to: a[0:n*n])
  for (int i = 0; i < n; i++) {
    double r = 0;
#pragma omp parallel for reduction(+: r)
    for (int j = 0; j < n; j++)
      r += a[i * n + j];
    all += r;
  }
  return all;
}
