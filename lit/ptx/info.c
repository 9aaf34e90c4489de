// -fptxcc-info prints, in source order, how each target region, loop and reduction was compiled,
// and at -O2 (where -fptxcc-layout=auto is the default) the layout of each array it maps.
// RUN: %ptxcc -fopenmp -O2 -fptxcc-info -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %ptxcc -fopenmp -O2 -fptxcc-layout=none -fptxcc-info -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: %ptxcc -fopenmp -O1 -fptxcc-info -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=NONE
// CHECK: info.c:[[#DOT:]]:1: layout: x[?] stays: the compute construct maps it for its one launch
// CHECK-NEXT: info.c:[[#DOT]]:1: target region compiled to kernel __omp_offloading_{{.*}}_dot_l[[#DOT]]: teams → blocks of the grid, parallel threads → threads of each block
// CHECK-NEXT: info.c:[[#DOT]]:1: loop: 'distribute' iterations → the whole range in every block, dealt to the grid's threads by its 'parallel for' (grid-stride loop)
// CHECK-NEXT: info.c:[[#DOT]]:1: loop: 'for' iterations → threads of the whole grid, cyclically (start ctaid.x * ntid.x + tid.x, stride nctaid.x * ntid.x): coalesced, not unrolled (about one iteration per thread)
// CHECK-NEXT: info.c:[[#DOT]]:{{[0-9]+}}: reduction: the block's value added by thread 0 with one atomic per block
// CHECK-NEXT: info.c:[[#DOT]]:{{[0-9]+}}: reduction: warp shuffles + shared memory across warps; every thread receives the block's value
// CHECK-NEXT: info.c:[[#SCALE:]]:1: layout: x[?] stays: the compute construct maps it for its one launch
// CHECK-NEXT: info.c:[[#SCALE]]:1: target region compiled to kernel {{.*}}: one block; parallel threads → threads of the block
// CHECK-NEXT: info.c:[[#SCALE]]:1: loop: 'for' iterations → threads of a block, one contiguous part each (schedule(static))
// NONE-NOT: layout:
// NONE: target region compiled to kernel {{.*}}_dot_
// NONE-NOT: layout:
double dot(int n, const double *x) {
  double s = 0;
#pragma omp target teams distribute parallel for map(to: x[0:n]) reduction(+: s)
  for (int i = 0; i < n; i++)
    s += x[i] * x[i];
  return s;
}
void scale(int n, double *x) {
#pragma omp target parallel for map(tofrom: x[0:n]) schedule(static)
  for (int i = 0; i < n; i++)
    x[i] *= 2;
}
