// Run-time extents (issue 18): Himeno's coefficient array sized at run time, flat
// (float *a, a[((i*ny + j)*nz + k)*4 + c]) and as a pointer to a variable-length array
// (float (*v)[ny][nz][4]), in the paper's form [I][J][K][4] -> [I][J][4][K]; a 3-D
// transpose [1,3,2] of a run-time-sized array; a trans inside a data region (the array
// converted in device memory at the block's start and back at its end); two runs with
// other sizes. Every result is compared with the serial computation (the device
// fuses multiply-adds: a relative tolerance for the sums).
// RUN: %ptxcc -fopenmp -O2 -fptxcc-info %s -o %t 2>&1 | FileCheck %s --check-prefix=INFO
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t 9 7 33 | FileCheck %s
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t 5 11 17 | FileCheck %s
// An extent that is not positive at run time stops the program at the directive.
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY not %t 4 0 3 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: ptxrt: error: {{.*}}runtime-extents.c:44:31: extent 2 of 'a' in the trans directive is 0 at run time; every extent must be positive
// INFO: runtime-extents.c:44: trans: 'a'[nx][ny][nz][4] is laid out as [nx][ny][4][nz] on the device (extents evaluated at the start of the block)
// INFO: trans: 'v'[nx][ny][nz][4] is laid out as [nx][ny][4][nz] on the device
// INFO: trans: 'b'[nx][ny][nz] is laid out as [nx][nz][ny] on the device
// INFO: trans: 'a' is a[?][?][4][?] on the device; {{[0-9]+ accesse?s?}} in 1 kernel rewritten
// CHECK: flat: ok
// CHECK: vla: ok
// CHECK: device layout: ok
// CHECK: transpose inside data: ok
// CHECK: PASS
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static float coef(int i, int j, int k, int c) { return 1.0f + 0.01f * k - 0.02f * j + 0.001f * i + 0.25f * c; }

// out[i][j][k] = sum_c a[i][j][k][c] * (c + 1)
static void serial(int nx, int ny, int nz, const float *a, float *out) {
  for (int i = 0; i < nx; i++)
    for (int j = 0; j < ny; j++)
      for (int k = 0; k < nz; k++) {
        float s = 0;
        for (int c = 0; c < 4; c++)
          s += a[((i * ny + j) * nz + k) * 4 + c] * (c + 1);
        out[(i * ny + j) * nz + k] = s;
      }
}

static int flat(int nx, int ny, int nz, float *a, float *out) {
  int n = nx * ny * nz;
#pragma ptxcc trans transpose(a[0:nx][0:ny][0:nz][0:4], [1,2,4,3])
#pragma omp target teams distribute parallel for collapse(3) map(to : a[0:n * 4]) map(from : out[0:n])
  for (int i = 0; i < nx; i++)
    for (int j = 0; j < ny; j++)
      for (int k = 0; k < nz; k++) {
        float s = 0;
        for (int c = 0; c < 4; c++)
          s += a[((i * ny + j) * nz + k) * 4 + c] * (c + 1);
        out[(i * ny + j) * nz + k] = s;
      }
  return 0;
}

static void vla(int nx, int ny, int nz, float (*v)[ny][nz][4], float (*out)[ny][nz]) {
#pragma ptxcc trans transpose(v[0:nx][0:ny][0:nz][0:4], [1,2,4,3])
#pragma omp target teams distribute parallel for collapse(3) map(to : v[0:nx]) map(from : out[0:nx])
  for (int i = 0; i < nx; i++)
    for (int j = 0; j < ny; j++)
      for (int k = 0; k < nz; k++) {
        float s = 0;
        for (int c = 0; c < 4; c++)
          s += v[i][j][k][c] * (c + 1);
        out[i][j][k] = s;
      }
}

// b[i][j][k] lives as [i][k][j]; the trans is inside the data region.
static int transpose_inside(int nx, int ny, int nz) {
  double *b = malloc(sizeof(double) * nx * ny * nz), *ref = malloc(sizeof(double) * nx * ny * nz);
  for (int x = 0; x < nx * ny * nz; x++)
    b[x] = ref[x] = x * 0.5;
  int bad = 0;
#pragma omp target data map(tofrom : b[0:nx * ny * nz])
  {
#pragma ptxcc trans transpose(b[0:nx][0:ny][0:nz], [1,3,2])
    {
      double *raw = malloc(sizeof(double) * nx * ny * nz);
      omp_target_memcpy(raw, omp_get_mapped_ptr(b, omp_get_default_device()), sizeof(double) * nx * ny * nz, 0,
                        0, omp_get_initial_device(), omp_get_default_device());
      for (int i = 0; i < nx; i++)
        for (int j = 0; j < ny; j++)
          for (int k = 0; k < nz; k++)
            bad += raw[(i * nz + k) * ny + j] != ref[(i * ny + j) * nz + k];
      printf("device layout: %s\n", bad ? "WRONG" : "ok");
      free(raw);
#pragma omp target teams distribute parallel for collapse(3)
      for (int i = 0; i < nx; i++)
        for (int j = 0; j < ny; j++)
          for (int k = 0; k < nz; k++)
            b[(i * ny + j) * nz + k] = 2 * b[(i * ny + j) * nz + k] + j - k;
    }
  }
  int tbad = 0;
  for (int i = 0; i < nx; i++)
    for (int j = 0; j < ny; j++)
      for (int k = 0; k < nz; k++) {
        double want = 2 * ref[(i * ny + j) * nz + k] + j - k;
        tbad += b[(i * ny + j) * nz + k] != want;
      }
  printf("transpose inside data: %s\n", tbad ? "WRONG" : "ok");
  free(b);
  free(ref);
  return bad + tbad;
}

int main(int argc, char **argv) {
  int nx = argc > 3 ? atoi(argv[1]) : 9, ny = argc > 3 ? atoi(argv[2]) : 7, nz = argc > 3 ? atoi(argv[3]) : 33;
  int n = nx * ny * nz;
  float *a = malloc(sizeof(float) * n * 4), *out = malloc(sizeof(float) * n), *ref = malloc(sizeof(float) * n);
  for (int i = 0; i < nx; i++)
    for (int j = 0; j < ny; j++)
      for (int k = 0; k < nz; k++)
        for (int c = 0; c < 4; c++)
          a[((i * ny + j) * nz + k) * 4 + c] = coef(i, j, k, c);
  serial(nx, ny, nz, a, ref);
  int bad = 0;
  flat(nx, ny, nz, a, out);
  for (int x = 0; x < n; x++)
    bad += fabsf(out[x] - ref[x]) > 1e-5f * fabsf(ref[x]);
  printf("flat: %s\n", bad ? "WRONG" : "ok");
  int vbad = 0;
  for (int x = 0; x < n; x++)
    out[x] = -1;
  vla(nx, ny, nz, (float(*)[ny][nz][4])a, (float(*)[ny][nz])out);
  for (int x = 0; x < n; x++)
    vbad += fabsf(out[x] - ref[x]) > 1e-5f * fabsf(ref[x]);
  printf("vla: %s\n", vbad ? "WRONG" : "ok");
  int tbad = transpose_inside(nx, ny, nz);
  printf("%s\n", bad + vbad + tbad ? "FAIL" : "PASS");
  return bad + vbad + tbad != 0;
}
