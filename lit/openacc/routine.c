// routine: the function is compiled for the device (declare target around it).
// RUN: %ptxcc -fopenacc -fopenacc-print=omp %s | FileCheck %s

// CHECK: #pragma omp declare target{{$}}
// CHECK-NEXT: static float sq(float x) { return x * x; }
// CHECK-NEXT: # {{[0-9]+}} "{{.*}}routine.c"
// CHECK-NEXT: #pragma omp end declare target
// CHECK-NEXT: # [[@LINE+2]] "{{.*}}routine.c"
#pragma acc routine seq
static float sq(float x) { return x * x; }

float cube(float x);
// CHECK: #pragma omp declare target to(cube)
#pragma acc routine(cube) seq

// nohost is dropped: ptxcc makes device code from the host version.
// CHECK: #pragma omp declare target{{$}}
// CHECK-NEXT: float dev_only(float x);
// CHECK-NEXT: # {{[0-9]+}} "{{.*}}routine.c"
// CHECK-NEXT: #pragma omp end declare target
#pragma acc routine vector nohost
float dev_only(float x);

void f(int n, float *a) {
  #pragma acc parallel loop
  for (int i = 0; i < n; i++) a[i] = sq(a[i]) + cube(a[i]);
}
