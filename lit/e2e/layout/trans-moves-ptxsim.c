// A trans block inside a data region converts the device copy at its start and back at its
// end. Where nothing but the mapping holds the copy's address, libptxrt writes the converted
// array into new device memory and the mapping takes it (layout::convert_by_moving: one pass,
// no copy back); where the program was given the address before (omp_get_mapped_ptr), the
// copy is converted where it is (a transpose into scratch and a device-to-device copy back),
// so that the address still reaches the array after the block. ptxsim's report counts the
// device-to-device copies: none for `moved`, one per conversion (2) for `pinned`.
// REQUIRES: ptxsim
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: env PTXSIM_STATS=json:%t.moved %run %t moved | FileCheck %s --check-prefix=MOVED
// RUN: %python -c "import json,sys; d=json.load(open(sys.argv[1])); print('copies', d['device_copies']['count'])" %t.moved | FileCheck %s --check-prefix=MOVED-STATS
// RUN: env PTXSIM_STATS=json:%t.pinned %run %t pinned | FileCheck %s --check-prefix=PINNED
// RUN: %python -c "import json,sys; d=json.load(open(sys.argv[1])); print('copies', d['device_copies']['count'])" %t.pinned | FileCheck %s --check-prefix=PINNED-STATS
// MOVED: values: ok
// MOVED-STATS: copies 0
// PINNED: values: ok
// PINNED-NEXT: address: ok
// PINNED-STATS: copies 2
#include <omp.h>
#include <stdio.h>
#include <string.h>

#define N 40
#define M 24
static double b[N][M];

int main(int argc, char **argv) {
  int pinned = argc > 1 && strcmp(argv[1], "pinned") == 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      b[i][j] = i * 100 + j;
  int bad = 0;
  double seen = -1;
#pragma omp target data map(tofrom : b)
  {
    const double *d = pinned ? omp_get_mapped_ptr(&b[0][0], omp_get_default_device()) : 0;
#pragma ptxcc trans transpose(b[0:N][0:M], [2,1])
    {
#pragma omp target teams distribute parallel for collapse(2)
      for (int j = 0; j < M; j++)
        for (int i = 0; i < N; i++)
          b[i][j] *= 2;
    }
#pragma omp target teams distribute parallel for collapse(2)
    for (int i = 0; i < N; i++)
      for (int j = 0; j < M; j++)
        b[i][j] += 1;
    if (d) {
#pragma omp target is_device_ptr(d) map(from : seen)
      seen = d[1 * M + 2];
    }
  }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      bad += b[i][j] != 2 * (i * 100 + j) + 1;
  printf("values: %s\n", bad ? "WRONG" : "ok");
  if (pinned)
    printf("address: %s\n", seen == 2 * (1 * 100 + 2) + 1 ? "ok" : "WRONG");
  return 0;
}
