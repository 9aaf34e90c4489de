/*
 * saxpy on the GPU with OpenMP target offload, checked against the serial answer.
 *
 *   ptxcc -O2 examples/saxpy.c -o saxpy && OMP_TARGET_OFFLOAD=MANDATORY ./saxpy
 *
 * Prints PASS (exit 0) or FAIL (exit 1). Without a GPU the kernel runs on libptxrt's emulator.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static void saxpy(int n, float a, const float *x, float *y) {
#pragma omp target teams distribute parallel for map(to : x[0:n]) map(tofrom : y[0:n])
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1 << 20;
  if (n <= 0)
    n = 1;
  const float a = 2.5f;
  float *x = malloc((size_t)n * sizeof *x);
  float *y = malloc((size_t)n * sizeof *y);
  float *expected = malloc((size_t)n * sizeof *expected);
  if (!x || !y || !expected) {
    fprintf(stderr, "saxpy: out of memory\n");
    return 2;
  }
  for (int i = 0; i < n; i++) {
    x[i] = (float)(i % 1000) * 0.5f;
    y[i] = (float)(i % 77) - 3.0f;
    expected[i] = a * x[i] + y[i];
  }

  saxpy(n, a, x, y);

  int bad = 0;
  for (int i = 0; i < n; i++) {
    if (fabsf(y[i] - expected[i]) > 1e-5f * fabsf(expected[i]) + 1e-6f) {
      if (bad < 5)
        fprintf(stderr, "saxpy: y[%d] = %g, expected %g\n", i, y[i], expected[i]);
      bad++;
    }
  }
  printf("saxpy n=%d: %s\n", n, bad ? "FAIL" : "PASS");
  free(x);
  free(y);
  free(expected);
  return bad != 0;
}
