// soa(p[0:n]) with n known at run time only: the structs' three fields become three arrays of
// n on the device; the kernel's accesses read n from the layout's extents global. Checked
// against the serial answer for two sizes.
// RUN: %ptxcc -fopenmp -O2 -fptxcc-info %s -o %t 2>&1 | FileCheck %s --check-prefix=INFO
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t 1000 | FileCheck %s
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t 777 | FileCheck %s
// INFO: soa-runtime.c:17: trans: 'p'[n] (structs) is laid out as one array per field on the device
// INFO: trans: 'p' is p[3][?] on the device; 3 accesses in 1 kernel rewritten
// CHECK: PASS
#include <stdio.h>
#include <stdlib.h>
typedef struct { double x, y, z; } P;
int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000;
  P *p = malloc(sizeof(P) * n);
  for (int i = 0; i < n; i++) { p[i].x = i; p[i].y = 2 * i; p[i].z = 0; }
#pragma ptxcc trans soa(p[0:n])
#pragma omp target teams distribute parallel for map(tofrom : p[0:n])
  for (int i = 0; i < n; i++) p[i].z = p[i].x + p[i].y;
  int bad = 0;
  for (int i = 0; i < n; i++) bad += p[i].z != 3.0 * i || p[i].x != i;
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad;
}
