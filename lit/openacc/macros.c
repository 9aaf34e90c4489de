// Macros inside #pragma acc are expanded (clang -E leaves unknown pragmas alone; the driver's
// -dD keeps the definitions, which the front end uses and then blanks), so are _Pragma forms.
// RUN: %ptxcc -fopenacc -fopenacc-print=omp %s | FileCheck %s

#define N 1024
#define SECTION(p, n) p[0:n]
#define VL 128
#define ACC_LOOP _Pragma("acc parallel loop present(a[0:N])")

void f(float *a, float *b) {
  // CHECK: #pragma omp target teams distribute parallel for thread_limit(128) map(ompx_hold, tofrom: a[0:1024]) map(ompx_hold, to: b[0:1024])
  #pragma acc parallel loop copy(a[0:N]) copyin(SECTION(b, N)) vector_length(VL)
  for (int i = 0; i < N; i++) a[i] += b[i];
  // CHECK: #pragma omp target teams distribute parallel for map(ompx_hold, present, alloc: a[0:1024])
  ACC_LOOP
  for (int i = 0; i < N; i++) a[i] *= 2;
  // CHECK-NOT: #define
}
