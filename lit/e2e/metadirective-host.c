// A metadirective in host code selecting on `device` traits (OpenMP 5.2 §7.1: the device set
// describes the device that encounters the directive, here the host): clang chooses for the
// host, which is right, so ptxcc compiles it. The host answers kind(host) and not kind(gpu):
// the first loop becomes a target region (the device writes it), the second runs its default
// on the host. The same selector inside a target region stays an error
// (lit/driver/metadirective-device.c).
// RUN: %ptxcc -fopenmp -O1 %s -o %t
// RUN: %run %t | FileCheck %s
// CHECK: kind(host): device wrote 1000 of 1000
// CHECK: kind(gpu): host wrote 1000 of 1000
#include <omp.h>
#include <stdio.h>
#define N 1000
static int a[N];

static int count(int want_device) {
  int n = 0;
  for (int i = 0; i < N; i++)
    n += a[i] == (want_device ? 2 * i : -i);
  return n;
}

int main(void) {
#pragma omp metadirective when(device = {kind(host)} : target teams distribute parallel for map(tofrom : a)) default(parallel for)
  for (int i = 0; i < N; i++)
    a[i] = omp_is_initial_device() ? -i : 2 * i;
  printf("kind(host): device wrote %d of %d\n", count(1), N);

#pragma omp metadirective when(device = {kind(gpu)} : target teams distribute parallel for map(tofrom : a)) default(parallel for)
  for (int i = 0; i < N; i++)
    a[i] = omp_is_initial_device() ? -i : 2 * i;
  printf("kind(gpu): host wrote %d of %d\n", count(0), N);
  return 0;
}
