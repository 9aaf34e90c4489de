// Pointers without a visible extent (arrays that arrive as function parameters, no data region)
// in offloaded `parallel for` loops: the runtime maps each one by the bytes the loop reaches,
// from the kernel's access ranges evaluated over the whole loop (ptx-runtime
// split/access_maps.rs), `to` where the loop only reads, `tofrom` where it writes. Checked
// against the same functions run serially on the host, on one device and on two, with and
// without -fptxcc-multi-device (each part then receives its sub-range): a 1-D update, a 2-D
// stencil whose rows read the halo rows above and below, a read-only and a write-only pointer,
// a function called twice with different n, pointer arithmetic at the call (`f(a + off, n)`),
// two parameters over one array (mapped once, as their hull), and a pointer the data region
// of a caller already maps (used as present).
// RUN: %ptxcc -fopenmp -O2 -fopenmp-offload-parallel-for -fptxcc-info %s -o %t 2> %t.info
// RUN: FileCheck %s --check-prefix=INFO < %t.info
// RUN: env PTXRT_DEBUG=1 %run %t 2> %t.debug | FileCheck %s
// RUN: FileCheck %s --check-prefix=DEBUG < %t.debug
// RUN: env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 %run %t | FileCheck %s
// RUN: %ptxcc -fopenmp -O2 -fopenmp-offload-parallel-for -fptxcc-multi-device %s -o %t.md
// RUN: env PTXRT_EMU_DEVICES=1 PTXSIM_DEVICES=1 %run %t.md | FileCheck %s
// RUN: env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 PTXRT_DEBUG=1 %run %t.md 2> %t.md.debug | FileCheck %s
// RUN: FileCheck %s --check-prefix=SPLIT < %t.md.debug
// RUN: env PTXRT_EMU_DEVICES=3 PTXSIM_DEVICES=3 %run %t.md | FileCheck %s
//
// DEBUG: access maps {{.*}}pointer 'y' mapped by its access range: bytes [{{.*}}) (tofrom), 0 bytes from it
// DEBUG: access maps {{.*}}pointer 'x' mapped by its access range: bytes [{{.*}}) (to), 0 bytes from it
// The rows stencil: from row 0 (the halo above row 1), column 1; written from row 1, column 1.
// DEBUG: access maps {{.*}}pointer 'out' mapped by its access range: bytes [{{.*}}) (tofrom), 328 bytes from it
// DEBUG: access maps {{.*}}pointer 'in' mapped by its access range: bytes [{{.*}}) (to), 8 bytes from it
// The overlapping pairs: one hull each, read by both / tofrom by both.
// DEBUG: access maps {{.*}}pointer 'p' mapped by its access range: bytes [0x[[LO:[0-9a-f]+]], 0x[[HI:[0-9a-f]+]]) (to), 0 bytes from it
// DEBUG: access maps {{.*}}pointer 'q' mapped by its access range: bytes [0x[[LO]], 0x[[HI]]) (to), -8 bytes from it
// DEBUG: access maps {{.*}}pointer 'dst' mapped by its access range: bytes [0x[[LO2:[0-9a-f]+]], 0x[[HI2:[0-9a-f]+]]) (tofrom)
// DEBUG: access maps {{.*}}pointer 'src' mapped by its access range: bytes [0x[[LO2]], 0x[[HI2]]) (tofrom)
// The caller's data region maps it: present, no access map.
// DEBUG-NOT: pointer 'p' mapped
// SPLIT: split {{.*}}: kernel '{{.*}}axpy{{.*}}', 1000 iterations: [0, 500) on device 0, [500, 1000) on device 1
// SPLIT: kernel '{{.*}}add2{{.*}}' runs on one device: 'p' and 'q' overlap (two pointers into one array)
// SPLIT: kernel '{{.*}}inplace{{.*}}' runs on one device: 'dst' and 'src' overlap
// CHECK: axpy: 0 mismatches
// CHECK: rows: 0 mismatches
// CHECK: fill/copy: 0 mismatches
// CHECK: twice: 0 mismatches
// CHECK: offset: 0 mismatches
// CHECK: alias (p, p + 1): 0 mismatches
// CHECK: alias: 0 mismatches
// CHECK: present: 0 mismatches
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 1000
#define R 40
#define C 40

// INFO: pointer-ranges.c:[[@LINE+2]]: parallel for offloaded: target teams distribute parallel for (pointers 'y', 'x': mapped at each launch by the loop's access ranges unless present)
void axpy(double *y, const double *x, double a, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    y[i] += a * x[i];
}
static void axpy_serial(double *y, const double *x, double a, int n) {
  for (int i = 0; i < n; i++)
    y[i] += a * x[i];
}

// Rows 1 .. rows-2 of a rows x cols grid: each reads its neighbours above and below.
// INFO: pointer-ranges.c:[[@LINE+4]]: parallel for offloaded: target teams distribute parallel for (pointers 'out', 'in'
// INFO: pointer-ranges.c:{{[0-9]+}}:1: access ranges of kernel '{{.*}}axpy{{.*}}': argument 4: read [8*i, 8*i + 8); argument 2: read and written [8*i, 8*i + 8)
// INFO: pointer-ranges.c:[[@LINE+2]]:1: access ranges of kernel '{{.*}}rows{{.*}}': argument 4: read [8*arg2*i + 8*v1, {{.*}}; argument 3: written [8*arg2 + 8*arg2*i + 8*v1, 8*arg2 + 8*arg2*i + 8*v1 + 8) (v1 = 1 .. arg2 - 2)
void rows(double *out, const double *in, int rows, int cols) {
#pragma omp parallel for
  for (int r = 1; r < rows - 1; r++)
    for (int c = 1; c < cols - 1; c++)
      out[r * cols + c] = 0.25 * (in[(r - 1) * cols + c] + in[(r + 1) * cols + c] +
                                  in[r * cols + c - 1] + in[r * cols + c + 1]);
}
static void rows_serial(double *out, const double *in, int rows, int cols) {
  for (int r = 1; r < rows - 1; r++)
    for (int c = 1; c < cols - 1; c++)
      out[r * cols + c] = 0.25 * (in[(r - 1) * cols + c] + in[(r + 1) * cols + c] +
                                  in[r * cols + c - 1] + in[r * cols + c + 1]);
}

// A write-only pointer and a read-only one.
void fill(double *w, int n, double v) {
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    w[i] = v + i;
}
void copy(double *dst, const double *src, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    dst[i] = src[i] * 2;
}

// Two parameters over one array: out = p + q with q = p + 1 (both read, overlapping), and
// dst = src in place (same index: no race between iterations).
void add2(double *out, const double *p, const double *q, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    out[i] = p[i] + q[i];
}
void inplace(double *dst, const double *src, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    dst[i] = src[i] * 2 + 1;
}

void scale(double *p, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    p[i] *= 3;
}

static int compare(const char *what, const double *a, const double *b, int n) {
  int bad = 0;
  for (int i = 0; i < n; i++)
    if (a[i] != b[i]) {
      if (bad < 3)
        printf("%s: [%d] = %g, serial %g\n", what, i, a[i], b[i]);
      bad++;
    }
  printf("%s: %d mismatches\n", what, bad);
  return bad;
}

int main(void) {
  double *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y), *ys = malloc(N * sizeof *ys);
  for (int i = 0; i < N; i++) {
    x[i] = i * 0.5;
    y[i] = ys[i] = 1.0 / (i + 1);
  }
  int bad = 0;
  axpy(y, x, 2.0, N);
  axpy_serial(ys, x, 2.0, N);
  bad += compare("axpy", y, ys, N);

  double *in = malloc(R * C * sizeof *in), *out = calloc(R * C, sizeof *out),
         *outs = calloc(R * C, sizeof *outs);
  for (int i = 0; i < R * C; i++)
    in[i] = (i * 7) % 13;
  rows(out, in, R, C);
  rows_serial(outs, in, R, C);
  bad += compare("rows", out, outs, R * C);

  double *w = malloc(N * sizeof *w), *d = calloc(N, sizeof *d), *ds = calloc(N, sizeof *ds);
  fill(w, N, 3.0);
  copy(d, w, N);
  for (int i = 0; i < N; i++)
    ds[i] = (3.0 + i) * 2;
  bad += compare("fill/copy", d, ds, N);

  // The same function with different n: the second maps a shorter range.
  for (int i = 0; i < N; i++)
    y[i] = ys[i] = i;
  axpy(y, x, 1.0, N / 2);
  axpy(y, x, 1.0, N / 3);
  axpy_serial(ys, x, 1.0, N / 2);
  axpy_serial(ys, x, 1.0, N / 3);
  bad += compare("twice", y, ys, N);

  // Pointer arithmetic at the call: the ranges start 10 elements in.
  axpy(y + 10, x + 20, 0.5, N - 30);
  axpy_serial(ys + 10, x + 20, 0.5, N - 30);
  bad += compare("offset", y, ys, N);

  for (int i = 0; i < N; i++)
    d[i] = i % 17;
  add2(w, d, d + 1, N - 1);
  inplace(d, d, N);
  for (int i = 0; i < N - 1; i++)
    ds[i] = (i % 17) + ((i + 1) % 17);
  ds[N - 1] = w[N - 1];
  bad += compare("alias (p, p + 1)", w, ds, N);
  for (int i = 0; i < N; i++)
    ds[i] = (i % 17) * 2 + 1;
  bad += compare("alias", d, ds, N);

  for (int i = 0; i < N; i++)
    w[i] = ds[i] = i;
#pragma omp target data map(tofrom : w[0:N])
  {
    scale(w, N);
  }
  for (int i = 0; i < N; i++)
    ds[i] *= 3;
  bad += compare("present", w, ds, N);
  return bad != 0;
}
