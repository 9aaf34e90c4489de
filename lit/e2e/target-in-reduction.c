// A target task in a task reduction (OpenMP 5.2 §14.1, `target in_reduction`): the region
// works on the task's private copy, mapped to the device, and the taskgroup combines it with
// the host task's. Clang's descriptor of the reduction (`.task_red.`) reaches the kernel as a
// pointer the device code never reads: it is passed as it is, not refused as an unmapped
// pointer of the program.
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: %run %t | FileCheck %s
// RUN: env OMP_TARGET_OFFLOAD=DISABLED %t | FileCheck %s
// CHECK: sum = 3000
// CHECK-NEXT: PASS
#include <stdio.h>

#define N 1000

#pragma omp declare target
static void on_device(int *s) {
  for (int i = 0; i < N; i++)
    *s += 2;
}
#pragma omp end declare target

static void on_host(int *s) {
  for (int i = 0; i < N; i++)
    *s += 1;
}

int main(void) {
  int sum = 0;
#pragma omp parallel master
#pragma omp taskgroup task_reduction(+ : sum)
  {
#pragma omp target in_reduction(+ : sum)
    on_device(&sum);
#pragma omp task in_reduction(+ : sum)
    on_host(&sum);
  }
  printf("sum = %d\n", sum);
  printf("%s\n", sum == 3 * N ? "PASS" : "FAIL");
  return sum != 3 * N;
}
