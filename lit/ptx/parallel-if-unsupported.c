// A parallel region that its if clause serialises runs as the team's code (every thread of the
// block runs it; thread 0's stores, atomic updates and calls of functions that write memory take
// effect): an indirect call, whose effects are unknown, cannot, and is reported at its line as
// such, not as code "between 'target teams' and its parallel loop". (A direct call of a function
// that writes memory is thread 0's: lit/e2e/parallel-if-call.c.)
// RUN: not %ptxcc -fopenmp -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: parallel-if-unsupported.c:[[#@LINE+12]]:{{[0-9]+}}: error: ptxcc does not support an indirect call in a 'parallel' region serialised by its if clause in a target region
// CHECK-NOT: error:
#pragma omp declare target
void bump(int *p);
void (*hook)(int *) = bump;
#pragma omp end declare target
void bump(int *p) { *p += 1; }

void f(int n, int *y, int c) {
#pragma omp target parallel for if(parallel: c) map(tofrom: y[0:n])
  for (int i = 0; i < n; i++) {
    y[i] += 1;
    hook(&y[i]);
  }
}
