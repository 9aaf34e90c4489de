// -fptxcc-layout=auto with arrays of structs (issue 18): a global array of structs of
// same-size scalar fields whose kernels walk the struct index with the threads becomes one
// array per field on the device; an array of structs whose fields differ in size stays,
// and says why. A data region that reads the device copy by its address (omp_get_mapped_ptr,
// omp_target_memcpy) keeps every array as the host lays it out, which that code expects: the
// raw copy of element 7's y is where the structs put it. The kernel runs in a loop inside the data region (the conversions at its start
// and end are paid once for every trip). Without the flag nothing changes. Every answer is
// compared with the serial computation.
// RUN: %ptxcc -fopenmp -O2 -fptxcc-layout=auto -fptxcc-info %s -o %t 2>&1 | FileCheck %s --check-prefix=INFO
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t | FileCheck %s
// RUN: %ptxcc -fopenmp -O2 -fptxcc-layout=none -fptxcc-info %s -o %t.off 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t.off | FileCheck %s
// INFO-DAG: auto-soa.c:[[#L:]]:{{[0-9]+}}: layout: pts[1000] (structs) -> one array per field, pts[3][1000] (3 fields of 8 bytes; coalesced on the struct index: 5 of 5 accesses)
// INFO-DAG: auto-soa.c:[[#L]]:{{[0-9]+}}: trans: 'pts' is pts[3][1000] on the device; 5 accesses in 1 kernel rewritten
// INFO-DAG: auto-soa.c:[[#L]]:{{[0-9]+}}: layout: mix[1000] (structs) stays: fields of different sizes
// INFO-DAG: auto-soa.c:[[#RAW:]]:{{[0-9]+}}: layout: pts[1000] (structs) stays: the data region uses device addresses ('omp_get_mapped_ptr'), which would see the converted copy
// OFF-NOT: layout:
// CHECK: pts: ok
// CHECK: mix: ok
// CHECK: device copy: structs
// CHECK: raw: ok
// CHECK: PASS
#include <omp.h>
#include <stdio.h>

#define N 1000
typedef struct {
  double x, y, z;
} point;
typedef struct {
  double m;
  float w;
} mixed;
static point pts[N];
static mixed mix[N];

int main(int argc, char **argv) {
  (void)argv;
  int iters = 2 + (argc > 8); // not a constant: the loop stays a loop
  for (int i = 0; i < N; i++) {
    pts[i].x = i;
    pts[i].y = 2 * i;
    pts[i].z = -i;
    mix[i].m = i;
    mix[i].w = 0.5f * i;
  }
#pragma omp target data map(tofrom : pts, mix)
  {
    for (int it = 0; it < iters; it++) {
#pragma omp target teams distribute parallel for
      for (int i = 0; i < N; i++) {
        pts[i].z = pts[i].x * pts[i].y + 1;
        pts[i].x += 0.5;
        mix[i].m += mix[i].w;
      }
    }
  }
  int bad = 0;
  for (int i = 0; i < N; i++)
    bad += pts[i].x != i + 0.5 * iters || pts[i].y != 2 * i || pts[i].z != (i + 0.5 * (iters - 1)) * 2 * i + 1;
  printf("pts: %s\n", bad ? "WRONG" : "ok");
  int badm = 0;
  for (int i = 0; i < N; i++)
    badm += mix[i].m != i + iters * (0.5 * i) || mix[i].w != 0.5f * i;
  printf("mix: %s\n", badm ? "WRONG" : "ok");
  // Field y of element 7: at 1000 + 7 doubles in one array per field, at 3 * 7 + 1 in structs.
  int dev = omp_get_default_device(), host = omp_get_initial_device();
  int badr = 0;
#pragma omp target data map(tofrom : pts)
  {
    double y7[2];
    char *d = omp_get_mapped_ptr(pts, dev);
    omp_target_memcpy(&y7[0], d, sizeof(double), 0, (N + 7) * sizeof(double), host, dev);
    omp_target_memcpy(&y7[1], d, sizeof(double), 0, (3 * 7 + 1) * sizeof(double), host, dev);
    printf("device copy: %s\n", y7[1] == 14 ? "structs" : y7[0] == 14 ? "one array per field" : "WRONG");
    for (int it = 0; it < iters; it++) {
#pragma omp target teams distribute parallel for
      for (int i = 0; i < N; i++)
        pts[i].y += 1;
    }
  }
  for (int i = 0; i < N; i++)
    badr += pts[i].y != 2 * i + iters;
  printf("raw: %s\n", badr ? "WRONG" : "ok");
  printf("%s\n", bad || badm || badr ? "FAIL" : "PASS");
  return bad || badm || badr;
}
