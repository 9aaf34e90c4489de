// A metadirective in a target region selecting on device traits runs the directive the device
// selects (OpenMP 5.2 §7.4: the `device` set describes the device executing the region), not
// the one clang chose for the host: `nothing` for kind(nohost) leaves the loop sequential
// (omp_in_parallel() is 0 in it), arch(nvptx) selects a teams loop over the whole range;
// implementation vendor(amd) is false on both.
// RUN: %ptxcc -fopenmp -O1 %s -o %t
// RUN: %run %t | FileCheck %s
// CHECK: nothing: 0 of 256 iterations in parallel
// CHECK-NEXT: teams loop: 256 of 256 iterations in parallel
#include <omp.h>
#include <stdio.h>
#define N 256
int main(void) {
  int par[N];
#pragma omp target map(from : par)
  {
#pragma omp metadirective when(implementation = {vendor(amd)} : parallel for) when(device = {kind(nohost)} : nothing) default(parallel for)
    for (int i = 0; i < N; i++)
      par[i] = omp_in_parallel();
  }
  int n = 0;
  for (int i = 0; i < N; i++)
    n += par[i];
  printf("nothing: %d of %d iterations in parallel\n", n, N);

#pragma omp target map(from : par)
#pragma omp metadirective when(device = {arch("nvptx")} : teams distribute parallel for) default(parallel for num_threads(1))
  for (int i = 0; i < N; i++)
    par[i] = omp_in_parallel();
  n = 0;
  for (int i = 0; i < N; i++)
    n += par[i];
  printf("teams loop: %d of %d iterations in parallel\n", n, N);
  return 0;
}
