// Pointers a compute construct uses as arrays with no data clause: -fptxcc-info says which get
// an implicit section from the loop bounds (copy when the construct writes through them,
// copyin when it only reads), and, from the passes, the ranges the loop reaches or why a
// construct cannot have them. Pointers a clause, an enclosing data construct or
// default(present) covers get no such line.
// RUN: %ptxcc -fopenacc -fptxcc-info -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not='data: implicit'
// RUN: %ptxcc -fopenacc -fptxcc-info -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=PASSES
// The text clang compiles is the same as without the inference: the runtime does it.
// RUN: %ptxcc -fopenacc -fopenacc-print=omp %s | FileCheck %s --check-prefix=OMP

void axpy(int n, double a, const double *x, double *y) {
  // OMP: #pragma omp target teams distribute parallel for{{$}}
  #pragma acc parallel loop
  // CHECK: implicit-sections.c:[[#@LINE+1]]: data: implicit copy(y[lo:hi]), copyin(x[lo:hi]) from the loop bounds ([lo, hi): the elements the loop reaches, from its access ranges at each launch; data already present is used as it is)
  for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i];
  // PASSES: implicit-sections.c:[[#@LINE-3]]:{{[0-9]+}}: access ranges of kernel '{{.*}}axpy_l{{[0-9]+}}': argument {{[0-9]}}: read [8*i, 8*i + 8); argument {{[0-9]}}: read and written [8*i, 8*i + 8)
}

void two_loops(int n, float *restrict a, float *restrict b) {
  #pragma acc kernels
  // CHECK: implicit-sections.c:[[#@LINE+1]]: data: implicit copy(a[lo:hi]), copy(b[lo:hi]) from the loop bounds
  {
    for (int i = 0; i < n; i++) a[i] = i;
    for (int i = 0; i < n; i++) b[i] = a[i];
  }
}

void listed(int n, float *a, float *b, float *c, float *d) {
  #pragma acc parallel loop copy(a[0:n]) present(b[0:n]) deviceptr(d)
  for (int i = 0; i < n; i++) a[i] += b[i] + d[i];
  #pragma acc data copy(c[0:n])
  {
    #pragma acc parallel loop
    for (int i = 0; i < n; i++) c[i] += 1;
  }
  #pragma acc parallel loop default(present)
  for (int i = 0; i < n; i++) c[i] += 1;
}

// Not a combined loop: a serial construct, a parallel region (gang-redundant code around its
// loops). Their pointers must be present or have a data clause (the runtime's not-present
// error says so); the passes table nothing for them.
void serial(int n, int *y) {
  #pragma acc serial
  // CHECK: implicit-sections.c:[[#@LINE+1]]: data: no implicit copy from the loop bounds for 'y' (no data clause): a serial construct runs one thread, not a parallel loop whose accesses ptxcc tables; the data must be present (a data region, enter data) or have a data clause, e.g. copy(y[0:n])
  for (int i = 0; i < n; i++) y[i] = i;
}

void region(int n, int *y, int *z) {
  #pragma acc parallel
  // CHECK: implicit-sections.c:[[#@LINE+1]]: data: no implicit copy from the loop bounds for 'y', 'z' (no data clause): a parallel region runs gang-redundant code around its loops, not one combined loop whose accesses ptxcc tables ('parallel loop' is); the data must be present
  {
    y[0] = 1;
    #pragma acc loop
    for (int i = 1; i < n; i++) y[i] = z[i];
  }
}

void scatter(int n, double *x, const int *idx) {
  #pragma acc parallel loop
  // CHECK: implicit-sections.c:[[#@LINE+1]]: data: implicit copy(x[lo:hi]), copyin(idx[lo:hi]) from the loop bounds
  for (int i = 0; i < n; i++) x[idx[i]] = i;
  // PASSES-NOT: access ranges of kernel '{{.*}}serial_l
  // PASSES-NOT: access ranges of kernel '{{.*}}region_l
  // PASSES: implicit-sections.c:[[#@LINE-5]]:{{[0-9]+}}: access ranges of kernel '{{.*}}scatter_l{{[0-9]+}}': {{.*}}written: whole section (a subscript that is not affine
}
