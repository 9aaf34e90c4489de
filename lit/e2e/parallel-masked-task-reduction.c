// `parallel masked` with a task reduction (OpenMP 5.2 section 5.5.8, the task modifier; section
// 17.2, combined constructs), which crashes clang 19: ptxcc compiles it as the `parallel` and
// `masked` constructs the combined construct is defined as. The masked thread's tasks and target
// tasks take part in the reduction (in_reduction); the sum is checked against the serial one.
// RUN: %ptxcc -fopenmp -O1 %s -o %t
// RUN: %run %t | FileCheck %s
// CHECK: sum 5050 (serial 5050), product 48 (serial 48)
#include <stdio.h>
#define N 100

#pragma omp declare target
static int part(int lo, int hi) {
  int s = 0;
  for (int i = lo; i <= hi; i++)
    s += i;
  return s;
}
#pragma omp end declare target

int main(void) {
  int sum = 0, serial = part(1, N);
  long prod = 3, serial_prod = 3 * 2 * 2 * 2 * 2;
#pragma omp parallel masked reduction(task, + : sum) reduction(task, * : prod) filter(0) num_threads(2)
  {
    // Half on the device, as a target task that joins the reduction.
#pragma omp target in_reduction(+ : sum) nowait
    sum += part(1, N / 2);
    for (int k = 0; k < 4; k++) {
#pragma omp task in_reduction(* : prod)
      prod *= 2;
    }
#pragma omp task in_reduction(+ : sum)
    sum += part(N / 2 + 1, N);
  }
  printf("sum %d (serial %d), product %ld (serial %ld)\n", sum, serial, prod, serial_prod);
  return 0;
}
