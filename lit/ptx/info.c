// -fptxcc-info prints, in source order, how each target region, loop and reduction was compiled.
// RUN: %ptxcc -fopenmp -O2 -fptxcc-info -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: info.c:[[#@LINE+9]]:1: target region compiled to kernel __omp_offloading_{{.*}}_dot_l[[#@LINE+9]]: teams → blocks of the grid, parallel threads → threads of each block
// CHECK-NEXT: info.c:[[#@LINE+8]]:1: loop: 'distribute' iterations → the whole range in every block, dealt to the grid's threads by its 'parallel for' (grid-stride loop)
// CHECK-NEXT: info.c:[[#@LINE+7]]:1: loop: 'for' iterations → threads of the whole grid, cyclically (start ctaid.x * ntid.x + tid.x, stride nctaid.x * ntid.x): coalesced, not unrolled (about one iteration per thread)
// CHECK-NEXT: info.c:[[#@LINE+6]]:{{[0-9]+}}: reduction: the block's value added by thread 0 with one atomic per block
// CHECK-NEXT: info.c:[[#@LINE+5]]:{{[0-9]+}}: reduction: warp shuffles + shared memory across warps; every thread receives the block's value
// CHECK-NEXT: info.c:[[#@LINE+10]]:1: target region compiled to kernel {{.*}}: one block; parallel threads → threads of the block
// CHECK-NEXT: info.c:[[#@LINE+9]]:1: loop: 'for' iterations → threads of a block, one contiguous part each (schedule(static))
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
