// max on double has no atom instruction: the block's result goes through one compare-and-swap
// loop in thread 0; int max uses atom.max.
// RUN: %ptxcc -fopenmp -O2 --emit=ptx %s -o - | FileCheck %s
// CHECK-LABEL: .visible .entry __omp_offloading_{{.*}}_dmax_l
// CHECK-NOT: call
// CHECK-DAG: shfl.sync.down.b32
// CHECK-DAG: atom.global.cas.b64
// CHECK-LABEL: .visible .entry __omp_offloading_{{.*}}_imax_l
// CHECK-NOT: call
// CHECK-DAG: shfl.sync.down.b32
// CHECK-DAG: atom.global.max.s32
double dmax(int n, const double *x) {
  double m = -1e300;
#pragma omp target teams distribute parallel for map(to: x[0:n]) reduction(max: m)
  for (int i = 0; i < n; i++)
    m = x[i] > m ? x[i] : m;
  return m;
}
int imax(int n, const int *x) {
  int m = -2147483647;
#pragma omp target teams distribute parallel for map(to: x[0:n]) reduction(max: m)
  for (int i = 0; i < n; i++)
    m = x[i] > m ? x[i] : m;
  return m;
}
