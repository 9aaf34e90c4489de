// Implicit data rules: scalars firstprivate (OpenMP's default), visible-size arrays copied
// (OpenMP's default), default(present) -> map(present, alloc: …), scalars on enclosing data
// constructs used from device memory.
// RUN: %ptxcc -fopenacc -fopenacc-print=omp %s | FileCheck %s

void f(int n, float *p) {
  float a[100], b[100];
  float s = 2;
  // CHECK: #pragma omp target teams distribute parallel for map(present, alloc: a, b){{$}}
  #pragma acc parallel loop default(present)
  for (int i = 0; i < 100; i++) a[i] = b[i] * s;
  // CHECK: #pragma omp target teams distribute parallel for{{$}}
  #pragma acc parallel loop
  for (int i = 0; i < 100; i++) a[i] = b[i] * s;
  // CHECK: #pragma omp target data map(ompx_hold, tofrom: s)
  #pragma acc data copy(s)
  {
    // CHECK: #pragma omp target map(tofrom: s)
    #pragma acc serial
    s += 1;
  }
  // CHECK: #pragma omp target teams distribute parallel for map(ompx_hold, tofrom: p[0:n]) firstprivate(s, n){{$}}
  #pragma acc parallel loop default(none) copy(p[0:n]) firstprivate(s, n)
  for (int i = 0; i < n; i++) p[i] = s;
  // present(p) with a pointer p: the data it points to.
  // CHECK: #pragma omp target teams distribute parallel for map(ompx_hold, present, alloc: p[0:0])
  #pragma acc parallel loop present(p)
  for (int i = 0; i < n; i++) p[i] = 0;
}

// default(present) with a pointer the region indexes: the data it points to must be present.
void g(int n, float *q, float *r) {
  // CHECK: #pragma omp target teams distribute parallel for map(present, alloc: q[0:0]){{$}}
  #pragma acc parallel loop default(present)
  for (int i = 0; i < n; i++) q[i] = r == q ? 1 : 0;
}
