/* Matrix product C = A * B. */
#include <stdio.h>
#include <stdlib.h>
int main(void) {
  int n = 96;
  double *A = malloc(n * n * sizeof *A), *B = malloc(n * n * sizeof *B), *C = malloc(n * n * sizeof *C);
  for (int i = 0; i < n * n; i++) { A[i] = (i % 13) - 6; B[i] = (i % 7) - 3; C[i] = -1; }
#pragma omp target teams distribute parallel for collapse(2) map(to: A[0:n * n], B[0:n * n]) map(from: C[0:n * n])
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double s = 0;
      for (int k = 0; k < n; k++) s += A[i * n + k] * B[k * n + j];
      C[i * n + j] = s;
    }
  double tr = 0, sum = 0;
  for (int i = 0; i < n; i++) tr += C[i * n + i];
  for (int i = 0; i < n * n; i++) sum += C[i];
  printf("trace %.1f sum %.1f C[5][7] %.1f\n", tr, sum, C[5 * n + 7]);
  return 0;
}
