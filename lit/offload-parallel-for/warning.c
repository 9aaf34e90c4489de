// Pointers in an offloaded loop are passed as zero-length array sections: their data must already
// be on the device. The translation warns, at the pointer's first use in the loop, unless a
// lexically enclosing `target data` maps it (or a `target enter data` earlier in the function, or
// anywhere for a global pointer). Arrays of visible size, globals and scalars need nothing.
// RUN: %ptxcc -fopenmp -fopenmp-offload-parallel-for -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=warning:

double table[256];
double *shared_buf;

void init(int n) {
#pragma omp target enter data map(alloc: shared_buf[0:n])
}

// An array parameter is a pointer too.
void scale(double *x, double y[], int n, double f) {
  // CHECK: warning.c:[[@LINE+3]]:31: warning: pointer 'x' is used in an offloaded parallel loop; map it with a 'target data' region or the loop will fail at run time if it is not present
  // CHECK: warning.c:[[@LINE+2]]:38: warning: pointer 'y' is used in an offloaded parallel loop; map it with a 'target data' region or the loop will fail at run time if it is not present
#pragma omp parallel for
  for (int i = 0; i < n; i++) x[i] = y[i] * f + table[i % 256];

#pragma omp target data map(tofrom: x[0:n]) map(to: y[0:n])
  {
#pragma omp parallel for
    for (int i = 0; i < n; i++) x[i] += y[i];
    double *alias = x + 1;
    // Only what the data region names counts: an alias of a mapped pointer is warned about.
    // CHECK: warning.c:[[@LINE+2]]:37: warning: pointer 'alias'
#pragma omp parallel for
    for (int i = 0; i < n - 1; i++) alias[i] = 0;
  }

  // Stacked: the data region's statement is the loop itself.
#pragma omp target data map(tofrom: x[0:n])
#pragma omp parallel for
  for (int i = 0; i < n; i++) x[i] *= 2;

#pragma omp target enter data map(to: y[0:n])
#pragma omp parallel for
  for (int i = 0; i < n; i++) table[i % 256] = y[i];
#pragma omp target exit data map(delete: y[0:n])

  // A global pointer entered anywhere in the file.
#pragma omp parallel for
  for (int i = 0; i < n; i++) shared_buf[i] = 0;
}
