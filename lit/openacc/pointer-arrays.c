// Sections through arrays of pointers (`double **a`, a[0:n][0:m]) are not contiguous, so clang's
// OpenMP refuses them: the pointer array is mapped, then each row in a loop (the runtime points
// the device's row pointers at the device rows), and they leave in the reverse order; the
// pointer array is never copied back. Contiguous 2-D sections are left alone.
// RUN: %ptxcc -fopenacc -fopenacc-print=omp %s | FileCheck %s
// RUN: not %ptxcc -fopenacc -fopenacc-print=omp -DBAD %s 2>&1 | FileCheck %s --check-prefix=BAD

void f(double **a, double (*c)[8], int n, int m, int q) {
  // CHECK-LABEL: void f(
  // CHECK: #pragma omp target enter data map(alloc: a[0:n]) if(n > 4) nowait depend(inout: __ptxcc_acc_queue[(unsigned)(q) % 64u])
  // CHECK-NEXT: # {{[0-9]+}} "{{.*}}pointer-arrays.c"
  // CHECK-NEXT: for (long __ptxcc_j[[J:[0-9]+]] = (long)(0); __ptxcc_j[[J]] < (long)(0) + (long)(n); ++__ptxcc_j[[J]]) {
  // CHECK-NEXT: # {{[0-9]+}} "{{.*}}pointer-arrays.c"
  // CHECK-NEXT: #pragma omp target enter data map(to: a[__ptxcc_j[[J]]][0:m]) if(n > 4) nowait
  // CHECK-NEXT: # {{[0-9]+}} "{{.*}}pointer-arrays.c"
  // CHECK-NEXT: }
  // CHECK: #pragma omp target teams distribute parallel for if(target: n > 4) map(ompx_hold, to: c[0:n][0:8]) map(ompx_hold, present, alloc: a[0:n]) nowait
  #pragma acc parallel loop copy(a[0:n][0:m]) copyin(c[0:n][0:8]) if(n > 4) async(q)
  for (int i = 0; i < n; i++) a[i][0] += c[i][0];
  // CHECK: for (long __ptxcc_j[[K:[0-9]+]] = (long)(0); __ptxcc_j[[K]] < (long)(0) + (long)(n); ++__ptxcc_j[[K]]) {
  // CHECK-NEXT: # {{[0-9]+}} "{{.*}}pointer-arrays.c"
  // CHECK-NEXT: #pragma omp target exit data map(from: a[__ptxcc_j[[K]]][0:m]) if(n > 4) nowait
  // CHECK-NEXT: # {{[0-9]+}} "{{.*}}pointer-arrays.c"
  // CHECK-NEXT: }
  // CHECK-NEXT: # {{[0-9]+}} "{{.*}}pointer-arrays.c"
  // CHECK-NEXT: #pragma omp target exit data map(release: a[0:n]) if(n > 4) nowait
  // CHECK-NEXT: # {{[0-9]+}} "{{.*}}pointer-arrays.c"
  // CHECK-NEXT: }

  // CHECK: #pragma omp target data map(ompx_hold, present, alloc: a[0:n])
  #pragma acc data present(a[0:n][0:m])
  {
    // CHECK-NOT: target update
    // CHECK: for (long __ptxcc_j[[U:[0-9]+]] = (long)(1); __ptxcc_j[[U]] < (long)(1) + (long)(2); ++__ptxcc_j[[U]]) {
    // CHECK-NEXT: # {{[0-9]+}} "{{.*}}pointer-arrays.c"
    // CHECK-NEXT: #pragma omp target update from(present: a[__ptxcc_j[[U]]][0:m])
    #pragma acc update self(a[1:2][0:m])
  }

  // Only rows: no directive is left for the other clauses.
  // CHECK-NOT: target exit data map(
  // CHECK: for (long
  // CHECK-NEXT: # {{[0-9]+}} "{{.*}}pointer-arrays.c"
  // CHECK-NEXT: #pragma omp target exit data map(delete: a[__ptxcc_j{{[0-9]+}}][0:m])
  // CHECK-NEXT: # {{[0-9]+}} "{{.*}}pointer-arrays.c"
  // CHECK-NEXT: }
  // CHECK-NEXT: # {{[0-9]+}} "{{.*}}pointer-arrays.c"
  // CHECK-NEXT: #pragma omp target exit data map(delete: a[0:n])
  #pragma acc exit data delete(a[0:n][0:m]) finalize
}

#ifdef BAD
void g(double **a, int n, int m) {
  // BAD: pointer-arrays.c:[[@LINE+1]]:39: error: ptxcc does not support 'no_create(…)' on '#pragma acc parallel loop' for 'a[0:n][0:m]', a section through an array of pointers (its rows are not contiguous)
  #pragma acc parallel loop no_create(a[0:n][0:m])
  for (int i = 0; i < n; i++) a[i][0] = 1;
  // BAD: pointer-arrays.c:[[@LINE+1]]:33: error: the section 'a[2:][0:m]' of an array of pointers needs a length at each level
  #pragma acc enter data copyin(a[2:][0:m])
}
#endif
