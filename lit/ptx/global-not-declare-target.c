// A writable global that device code reaches through a called function, without declare target,
// would be a device copy the host never sees: an error naming it (clang fails to link it).
// RUN: not %ptxcc -fopenmp -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: global-not-declare-target.c:[[#@LINE+8]]:{{[0-9]+}}: error: variable 'counter' is used on the device (in 'f') but is not 'declare target'
// CHECK-NOT: table
int counter[10] = {1,2,3};
static double scale = 2.0;
static const double table[2] = {1, 2};
#pragma omp declare target
double g;
#pragma omp end declare target
double f(int i) { return counter[i] * scale + table[i & 1] + g; }
void run(int n, double *y) {
#pragma omp target teams distribute parallel for map(tofrom: y[0:n])
  for (int i = 0; i < n; i++) y[i] = f(i % 10);
}
