// A variable private to a gang (or worker) loop, or to the compute construct, and reduced by
// an inner loop: the inner reduction combines into that private copy, so it is not hoisted to
// the construct (clang: "reduction variable cannot be private", "private variable cannot be
// in a map clause"). So is a variable each iteration of the gang loop assigns before it uses it
// (NPB-ACC's CG writes `d = 0.0;` with no private clause): the loop makes it private. A reduction
// variable that is not private above is still hoisted.
// RUN: %ptxcc -fopenacc -fopenacc-print=omp %s | FileCheck %s

void cg(int n, int m, const double *a, double *r) {
  double d;
  // CHECK-LABEL: void cg(
  // CHECK: #pragma omp target teams distribute map(ompx_hold, to: a[0:n*m]) map(ompx_hold, from: r[0:n]) private(d){{$}}
  #pragma acc parallel loop gang private(d) copyin(a[0:n*m]) copyout(r[0:n])
  for (int i = 0; i < n; i++) {
    d = 0;
    // CHECK: #pragma omp parallel for simd reduction(+: d)
    #pragma acc loop worker vector reduction(+:d)
    for (int j = 0; j < m; j++) d += a[i * m + j];
    r[i] = d;
  }
}

void cg_write_first(int n, int m, const double *a, double *r) {
  double d;
  int lo;
  // CHECK-LABEL: void cg_write_first(
  // CHECK: #pragma omp target teams distribute num_teams(n) map(ompx_hold, to: a[0:n*m]) map(ompx_hold, from: r[0:n]) private(d, lo){{$}}
  #pragma acc parallel loop gang num_gangs(n) copyin(a[0:n*m]) copyout(r[0:n])
  for (int i = 0; i < n; i++) {
    lo = i * m;
    d = 0.0;
    // CHECK: #pragma omp parallel for simd reduction(+: d)
    #pragma acc loop worker vector reduction(+:d)
    for (int j = lo; j < lo + m; j++) d += a[j];
    r[i] = d;
  }
}

void gang_in_parallel(int n, int m, const double *a, double *r) {
  double d, total = 0;
  // CHECK-LABEL: void gang_in_parallel(
  // CHECK: #pragma omp target teams map(ompx_hold, to: a[0:n*m]) map(ompx_hold, from: r[0:n]) reduction(max: total){{$}}
  #pragma acc parallel copyin(a[0:n*m]) copyout(r[0:n])
  {
    // CHECK: #pragma omp distribute private(d)
    #pragma acc loop gang private(d)
    for (int i = 0; i < n; i++) {
      d = 1;
      // CHECK: #pragma omp parallel for reduction(*: d)
      #pragma acc loop worker reduction(*:d)
      for (int j = 0; j < m; j++) d *= a[i * m + j];
      r[i] = d;
    }
    #pragma acc loop gang vector reduction(max:total)
    for (int i = 0; i < n; i++) total = total > a[i] ? total : a[i];
  }
}

void worker_private(int n, int m, const int *a, int *r) {
  int d;
  // CHECK-LABEL: void worker_private(
  // CHECK: #pragma omp target teams distribute thread_limit((4) * 32)
  // CHECK-NOT: reduction
  // CHECK: #pragma omp parallel for private(d){{$}}
  // CHECK: #pragma omp parallel for num_threads(32) reduction(^: d)
  #pragma acc parallel loop gang num_workers(4) copyin(a[0:n*m]) copyout(r[0:n])
  for (int g = 0; g < n / 4; g++) {
    #pragma acc loop worker private(d)
    for (int i = g * 4; i < g * 4 + 4; i++) {
      d = 0;
      #pragma acc loop vector reduction(^:d)
      for (int j = 0; j < m; j++) d ^= a[i * m + j];
      r[i] = d;
    }
  }
}

void serial(int n, const double *a, double *r) {
  double d;
  // CHECK-LABEL: void serial(
  // CHECK: #pragma omp target map(ompx_hold, to: a[0:n]) map(ompx_hold, from: r[0:1]) private(d){{$}}
  // CHECK: /* acc loop vector reduction(min:d): sequential
  #pragma acc serial loop copyin(a[0:n]) copyout(r[0:1]) private(d)
  for (int k = 0; k < 1; k++) {
    d = 1e30;
    #pragma acc loop vector reduction(min:d)
    for (int j = 0; j < n; j++) d = a[j] < d ? a[j] : d;
    r[0] = d;
  }
}

void construct_private(int n, const int *a, int *r) {
  int d;
  // CHECK-LABEL: void construct_private(
  // CHECK: #pragma omp target teams num_teams(1) map(ompx_hold, to: a[0:n]) map(ompx_hold, from: r[0:1]) private(d){{$}}
  // CHECK: #pragma omp parallel for reduction(||: d)
  #pragma acc parallel copyin(a[0:n]) copyout(r[0:1]) private(d)
  {
    d = 0;
    #pragma acc loop worker reduction(||:d)
    for (int j = 0; j < n; j++) d = d || a[j];
    r[0] = d;
  }
}
