// Temporaries declared outside a loop (C89 style) that every iteration assigns before using
// them are private to each thread even when the dependence test cannot prove the loop
// independent (here a call gets an element's address) and the user's 'independent' or level
// makes it parallel: shared, the threads would race on them. In kernels they keep the last
// iteration's value (lastprivate), in a parallel loop they are private.
// RUN: %ptxcc -fopenacc -fopenacc-print=omp %s | FileCheck %s

#pragma acc routine seq
static void bump(double *p) { *p += 1; }

void f(int n, double *a, double *b) {
  int i, k;
  double t, u, keep;
  #pragma acc kernels copy(a[0:n])
  {
    // CHECK: #pragma omp target teams distribute parallel for map(tofrom: {{.*}}) lastprivate(k, t)
    #pragma acc loop independent
    for (i = 0; i < n; i++) {
      t = i * 2.0;
      for (k = 0; k < 2; k++) bump(&a[i]);
      a[i] += t;
    }
  }
  // 'keep' is read before it is written: not a temporary, left alone.
  // CHECK: #pragma omp target teams distribute parallel for map(ompx_hold, tofrom: b[0:n]) private(u)
  #pragma acc parallel loop gang vector copy(b[0:n])
  for (i = 0; i < n; i++) {
    u = i * 3.0;
    bump(&b[i]);
    b[i] += u + keep;
    keep = 1;
  }
}
