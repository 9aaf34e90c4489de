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
  // CHECK: #pragma omp target exit data map(release: a)
  // CHECK: }
  return 0;
}
