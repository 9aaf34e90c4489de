// soa(p[0:n]): an array of structs of scalar fields lives on the device as one array per
// field (the transpose [n][fields] -> [fields][n]); the raw device copy holds all x, then all
// y, then all z. Kernels read and write fields; results compared with the host.
// RUN: %ptxcc -fopenmp -O2 -fptxcc-info %s -o %t 2>&1 | FileCheck %s --check-prefix=INFO
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t | FileCheck %s
// INFO: soa.c:[[#LINE:]]: trans: 'p'[1000] (structs) is laid out as one array per field on the device
// INFO: trans: 'p' is p[3][1000] on the device
// CHECK: raw: ok
// CHECK: PASS
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  double x, y, z;
} point;

#define N 1000

int main(void) {
  point *p = malloc(N * sizeof(point));
  for (int i = 0; i < N; i++) {
    p[i].x = i;
    p[i].y = 2 * i;
    p[i].z = -i;
  }
#pragma ptxcc trans soa(p[0:N])
  {
#pragma omp target data map(tofrom : p[0:N])
    {
      double raw[3];
      for (int f = 0; f < 3; f++)
        omp_target_memcpy(&raw[f], omp_get_mapped_ptr(p, omp_get_default_device()), sizeof(double), 0,
                          (f * N + 7) * sizeof(double), omp_get_initial_device(), omp_get_default_device());
      printf("raw: %s\n", raw[0] == 7 && raw[1] == 14 && raw[2] == -7 ? "ok" : "WRONG");
#pragma omp target teams distribute parallel for
      for (int i = 0; i < N; i++) {
        p[i].z = p[i].x * p[i].y + p[(i + 1) % N].y;
        p[i].x += 0.5;
      }
    }
  }
  int bad = 0;
  for (int i = 0; i < N; i++)
    bad += p[i].x != i + 0.5 || p[i].y != 2 * i || p[i].z != (double)i * 2 * i + 2.0 * ((i + 1) % N);
  printf("%s\n", bad ? "FAIL" : "PASS");
  free(p);
  return bad != 0;
}
