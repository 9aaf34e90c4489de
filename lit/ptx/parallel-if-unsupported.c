// A parallel region that its if clause serialises runs as the team's code (every thread of the
// block runs it, thread 0's stores and atomic updates reach memory): a call to a function that
// writes memory cannot, and is reported at its line as such, not as code "between 'target teams'
// and its parallel loop".
// RUN: not %ptxcc -fopenmp -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: parallel-if-unsupported.c:[[#@LINE+13]]:{{[0-9]+}}: error: ptxcc does not support a call to 'bump' in a 'parallel' region serialised by its if clause in a target region
// CHECK-NOT: error:
#pragma omp declare target
void bump(int *p);
#pragma omp end declare target
void bump(int *p) { *p += 1; }

void f(int n, int *y, int c) {
#pragma omp target parallel for if(parallel: c) map(tofrom: y[0:n])
  for (int i = 0; i < n; i++) {
    y[i] += 1;
#pragma omp atomic
    y[n - 1] += 1;
    bump(&y[i]);
  }
}
