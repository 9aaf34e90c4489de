// The default device among several: OMP_DEFAULT_DEVICE picks it, omp_set_default_device changes
// it, constructs without a device clause go there; a device number past the last is an error
// naming how many devices there are.
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: env PTXRT_EMU_DEVICES=3 PTXSIM_DEVICES=3 OMP_DEFAULT_DEVICE=2 %run %t | FileCheck %s
// RUN: env PTXRT_EMU_DEVICES=3 PTXSIM_DEVICES=3 %run not %t 5 2>&1 | FileCheck %s --check-prefix=BAD
// CHECK: default 2: present on 0 1 2: 0 0 1
// CHECK-NEXT: default 0: present on 0 1 2: 1 0 1
// CHECK-NEXT: PASS
// BAD: error: {{.*}}device number 5 does not exist (3 devices available: 0..2, 3 is the host)
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static double a[64];

static void report(void) {
  printf("default %d: present on 0 1 2: %d %d %d\n", omp_get_default_device(),
         omp_target_is_present(a, 0), omp_target_is_present(a, 1), omp_target_is_present(a, 2));
}

int main(int argc, char **argv) {
  if (argc > 1) {
    int dev = atoi(argv[1]);
#pragma omp target device(dev)
    a[0] = 1;
    return 0;
  }
#pragma omp target enter data map(to : a)
  report();
  omp_set_default_device(0);
#pragma omp target enter data map(to : a)
  report();
  int ok = omp_target_is_present(a, 0) && !omp_target_is_present(a, 1) &&
           omp_target_is_present(a, 2);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return !ok;
}
