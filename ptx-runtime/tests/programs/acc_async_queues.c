/* OpenACC async queues: two queues of kernels inside a data region, an async update, acc_wait,
 * acc_async_test, acc_wait_all. ptxcc makes the async constructs OpenMP target tasks ordered per
 * queue; on a GPU each running task has its own stream. */
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>
int main(void) {
  int n = 100000;
  double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
  for (int i = 0; i < n; i++) { a[i] = i; b[i] = -i; }
#pragma acc data copy(a[0:n], b[0:n])
  {
    for (int it = 0; it < 10; it++) {
#pragma acc parallel loop async(1) present(a[0:n])
      for (int i = 0; i < n; i++) a[i] += 1;
#pragma acc parallel loop async(2) present(b[0:n])
      for (int i = 0; i < n; i++) b[i] -= 1;
    }
#pragma acc update self(a[0:n]) async(1)
    acc_wait(1);
    printf("a[5]=%g test2=%d\n", a[5], acc_async_test(2));
    acc_wait_all();
  }
  int bad = 0;
  for (int i = 0; i < n; i++) bad += a[i] != i + 10 || b[i] != -i - 10;
  printf("%s\n", bad ? "FAIL" : "ok");
  return bad != 0;
}
