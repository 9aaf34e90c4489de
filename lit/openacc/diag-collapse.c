// collapse(n) without force: and tile with n sizes need n tightly nested loops: statements
// between the loops would run once per iteration of the collapsed space in OpenMP (intervening
// code), so they are an error, as are too few loops. collapse(force:n) takes them.
// RUN: not %ptxcc -fopenacc -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %ptxcc -fopenacc -fopenacc-print=omp -DFORCE %s | FileCheck %s --check-prefix=FORCE

void f(int n, double *a, double *b) {
#ifdef FORCE
  // FORCE: #pragma omp target teams distribute parallel for collapse(2)
  #pragma acc parallel loop collapse(force:2)
  for (int i = 0; i < n; i++) {
    double s = i;
    for (int j = 0; j < n; j++) b[i * n + j] = s + j;
  }
#else
  // CHECK: diag-collapse.c:[[@LINE+1]]:29: error: 'collapse(2)' needs 2 tightly nested loops, but the body of the loop of line [[@LINE+2]] has other statements than the next loop ('collapse(force:2)' runs them in the innermost loop)
  #pragma acc parallel loop collapse(2)
  for (int i = 0; i < n; i++) {
    a[i] = 0;
    for (int j = 0; j < n; j++) a[i] += j;
  }
  // Braces around the one inner loop are fine.
  #pragma acc parallel loop collapse(3)
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) {
      for (int k = 0; k < n; k++) b[(i * n + j) * n + k] = k;
    }
  }
  #pragma acc parallel
  {
    // CHECK: diag-collapse.c:[[@LINE+1]]:22: error: 'tile(8, 8, 2)' needs 3 tightly nested loops, but only 2 loops follow
    #pragma acc loop tile(8, 8, 2)
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++) b[i * n + j] = j;
  }
  #pragma acc kernels
  {
    // CHECK: diag-collapse.c:[[@LINE+1]]:22: error: 'collapse(2)' needs 2 tightly nested loops, but only 1 loop follows
    #pragma acc loop collapse(2)
    for (int i = 0; i < n; i++) a[i] = i;
  }
  // collapse(force:n) still needs one loop per level, and trip counts known before the nest.
  // CHECK: diag-collapse.c:[[@LINE+1]]:29: error: 'collapse(force:2)': the body of the loop of line [[@LINE+2]] has 2 loops, and a collapsed level holds one
  #pragma acc parallel loop collapse(force:2)
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) a[j] = i;
    for (int j = 0; j < n; j++) b[j] = i;
  }
  // CHECK: diag-collapse.c:[[@LINE+1]]:29: error: 'collapse(force:2)': the body of the loop of line [[@LINE+2]] holds the next loop only inside another statement
  #pragma acc parallel loop collapse(force:2)
  for (int i = 0; i < n; i++) {
    if (i > 2)
      for (int j = 0; j < n; j++) a[j] = i;
  }
  // CHECK: diag-collapse.c:[[@LINE+1]]:29: error: 'collapse(force:3)': only 2 loops follow
  #pragma acc parallel loop collapse(force:3)
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) { a[j] = i; }
  }
#endif
}

// A CSR row: the inner bounds come from the code between the loops, which has not run when the
// collapsed iteration space is computed (the kernel wrote past the data).
void csr(int n, const int *rp, double *v, int m) {
#ifndef FORCE
  // CHECK: diag-collapse.c:[[@LINE+1]]:29: error: 'collapse(force:2)': the bounds of the loop of line [[@LINE+4]] read 'start', which the code between the loops sets: the trip counts must be known before the nest (OpenACC 3.3, 2.9.1); collapse fewer loops
  #pragma acc parallel loop collapse(force:2) copyin(rp[0:n+1])
  for (int i = 0; i < n; i++) {
    int start = rp[i], end = rp[i + 1];
    for (int j = start; j < end; j++) v[j] = i;
  }
  // CHECK: diag-collapse.c:[[@LINE+1]]:28: error: 'collapse(force:3)': the bounds of the loop of line [[@LINE+6]] read 'm', which the code between the loops sets
  #pragma acc kernels loop collapse(force:3)
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) {
      v[j] = i;
      m = rp[i];
      for (int k = 0; k < m; k++) v[k] += j;
    }
  }
#endif
  // A triangle (bounds from the outer loop's variable) is OpenMP's non-rectangular nest.
  // FORCE: #pragma omp target teams distribute parallel for {{.*}}collapse(2)
  #pragma acc parallel loop collapse(force:2)
  for (int i = 0; i < n; i++) {
    double s = i;
    for (int j = i; j < n; j++) v[i * n + j] = s;
  }
}
