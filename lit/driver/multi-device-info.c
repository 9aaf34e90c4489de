// -fptxcc-info says which loops -fptxcc-multi-device splits over the devices, which of their
// arguments the parts combine, and why a loop is not split. Without the flag nothing is said
// and no kernel is splittable.
// RUN: %ptxcc -fopenmp -fptxcc-multi-device -fptxcc-info -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: %ptxcc -fopenmp -fptxcc-info -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=OFF
// OFF-NOT: split
#define N 1000
double a[N], b[N];
int h[8];

void kernels(double *s, int n) {
  // CHECK: multi-device-info.c:[[#@LINE+1]]:1: split over devices: each device runs a contiguous part of the loop's iterations (-fptxcc-multi-device)
#pragma omp target teams distribute parallel for map(to : a) map(from : b)
  for (int i = 0; i < N; i++)
    b[i] = 2 * a[i];

  double sum = 0;
  // CHECK: multi-device-info.c:[[#@LINE+1]]:1: split over devices: each device runs a contiguous part of the loop's iterations; the parts of argument 1 are combined (+) (-fptxcc-multi-device)
#pragma omp target teams distribute parallel for reduction(+ : sum) map(to : a)
  for (int i = 0; i < N; i++)
    sum += a[i];
  *s = sum;

  double prod = 1;
  // A product has no native atomic: its compare-and-swap is read, the parts are folded.
  // CHECK: multi-device-info.c:[[#@LINE+1]]:1: split over devices: each device runs a contiguous part of the loop's iterations; the parts of argument 1 are combined (*) (-fptxcc-multi-device)
#pragma omp target teams distribute parallel for reduction(* : prod) map(to : a)
  for (int i = 0; i < N; i++)
    prod *= a[i];
  *s += prod;

  // CHECK: multi-device-info.c:[[#@LINE+1]]:1: not split over devices: it is not a teams + parallel loop
#pragma omp target parallel for map(tofrom : b)
  for (int i = 0; i < N; i++)
    b[i] += 1;

  // CHECK: multi-device-info.c:[[#@LINE+1]]:1: not split over devices: it updates memory with an atomic compare-and-swap that is not a reduction's min, max or product ('critical'
#pragma omp target teams distribute parallel for map(tofrom : h)
  for (int i = 0; i < N; i++) {
#pragma omp critical
    h[i % 8] += 1;
  }
}
