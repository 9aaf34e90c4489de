// device_type: clause groups for nvidia, default and * apply; others are dropped.
// RUN: %ptxcc -fopenacc -fopenacc-print=omp %s | FileCheck %s

void f(int n, float *a) {
  // CHECK: #pragma omp target teams distribute parallel for thread_limit(64)
  #pragma acc parallel loop vector_length(32) device_type(nvidia) vector_length(64) device_type(radeon) vector_length(256)
  for (int i = 0; i < n; i++) a[i] = 0;
  // CHECK: #pragma omp target teams distribute num_teams(8){{$}}
  #pragma acc parallel loop device_type(host) num_gangs(2) dtype(*) num_gangs(8) gang
  for (int i = 0; i < n; i++) a[i] = 0;
  // CHECK: #pragma omp target{{$}}
  #pragma acc parallel loop device_type(radeon) gang device_type(nvidia) seq
  for (int i = 1; i < n; i++) a[i] = a[i - 1];
}
