// Pointers in an offloaded loop are passed as zero-length array sections: data already present is
// used as it is, and a pointer whose data is not present is mapped at each launch by the loop's
// access ranges (ptx-runtime split/access_maps.rs). No warning: the report names, per loop, the
// pointers no lexically enclosing `target data` maps (nor a `target enter data` earlier in the
// function, or anywhere for a global pointer). Arrays of visible size, globals and scalars need
// nothing.
// RUN: %ptxcc -fopenmp -fopenmp-offload-parallel-for=report -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=warning:

double table[256];
double *shared_buf;

void init(int n) {
#pragma omp target enter data map(alloc: shared_buf[0:n])
}

// An array parameter is a pointer too.
void scale(double *x, double y[], int n, double f) {
  // CHECK: pointer-report.c:[[@LINE+1]]: parallel for offloaded: target teams distribute parallel for (pointers 'x', 'y': mapped at each launch by the loop's access ranges unless present)
#pragma omp parallel for
  for (int i = 0; i < n; i++) x[i] = y[i] * f + table[i % 256];

#pragma omp target data map(tofrom: x[0:n]) map(to: y[0:n])
  {
    // CHECK: pointer-report.c:[[@LINE+1]]: parallel for offloaded: target teams distribute parallel for{{$}}
#pragma omp parallel for
    for (int i = 0; i < n; i++) x[i] += y[i];
    double *alias = x + 1;
    // Only what the data region names counts: an alias of a mapped pointer is named (at run
    // time it is found present, inside x's section).
    // CHECK: pointer-report.c:[[@LINE+1]]: parallel for offloaded: target teams distribute parallel for (pointer 'alias': mapped
#pragma omp parallel for
    for (int i = 0; i < n - 1; i++) alias[i] = 0;
  }

  // Stacked: the data region's statement is the loop itself.
  // CHECK: pointer-report.c:[[@LINE+2]]: parallel for offloaded: target teams distribute parallel for{{$}}
#pragma omp target data map(tofrom: x[0:n])
#pragma omp parallel for
  for (int i = 0; i < n; i++) x[i] *= 2;

  // CHECK: pointer-report.c:[[@LINE+2]]: parallel for offloaded: target teams distribute parallel for{{$}}
#pragma omp target enter data map(to: y[0:n])
#pragma omp parallel for
  for (int i = 0; i < n; i++) table[i % 256] = y[i];
#pragma omp target exit data map(delete: y[0:n])

  // A global pointer entered anywhere in the file.
  // CHECK: pointer-report.c:[[@LINE+1]]: parallel for offloaded: target teams distribute parallel for{{$}}
#pragma omp parallel for
  for (int i = 0; i < n; i++) shared_buf[i] = 0;
}
