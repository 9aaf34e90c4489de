// declare: globals become declare target; in a function, an enter data at the directive and an
// exit data where the scope ends (and before each return).
// RUN: %ptxcc -fopenacc -fopenacc-print=omp %s | FileCheck %s

float g[100];
int gl[10];
// CHECK: #pragma omp declare target to(g)
#pragma acc declare create(g)
// CHECK: /* acc declare link(gl): mapped by the data clauses that name it */
#pragma acc declare link(gl)

int f(int n) {
  float a[100];
  // CHECK: #pragma omp target enter data map(to: a)
  #pragma acc declare copyin(a)
  if (n < 0)
    // CHECK: {
    // CHECK-NEXT: # {{[0-9]+}} "{{.*}}declare.c"
    // CHECK-NEXT: #pragma omp target exit data map(release: a)
    // CHECK: return 1;}
    return 1;
  #pragma acc parallel loop
  for (int i = 0; i < 100; i++) a[i] += g[i];
  // A returned value is computed before the data leaves the device.
  // CHECK: { __typeof__(a[1] + n) __ptxcc_rv{{[0-9]+}} = (a[1] + n);
  // CHECK-NEXT: # {{[0-9]+}}
  // CHECK-NEXT: #pragma omp target exit data map(release: a)
  // CHECK-NEXT: # {{[0-9]+}}
  // CHECK-NEXT: return __ptxcc_rv{{[0-9]+}};}
  // CHECK: #pragma omp target exit data map(release: a)
  // CHECK: }
  return a[1] + n;
}

// A break or continue that leaves the declare's block ends its data lifetime as well; those of
// loops and switches inside the block do not.
void loops(int n, double *x) {
  for (int k = 0; k < n; k++) {
    double loc[8];
    // CHECK: #pragma omp target enter data map(alloc: loc)
    #pragma acc declare copyout(loc)
    for (int j = 0; j < 8; j++) {
      if (j == 5) break;
      loc[j] = j;
    }
    // CHECK: if (k == 1) {
    // CHECK-NEXT: # {{[0-9]+}}
    // CHECK-NEXT: #pragma omp target exit data map(from: loc)
    // CHECK: continue;}
    if (k == 1) continue;
    // CHECK: if (k == 2) {
    // CHECK-NEXT: # {{[0-9]+}}
    // CHECK-NEXT: #pragma omp target exit data map(from: loc)
    // CHECK: break;}
    if (k == 2) break;
    x[k] = loc[0];
    // CHECK: #pragma omp target exit data map(from: loc)
  }
}
