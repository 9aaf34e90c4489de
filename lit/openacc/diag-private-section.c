// Array sections in private/firstprivate that ptxcc cannot give copies of: said in OpenACC
// terms rather than by clang on the OpenMP text. (Pointer sections on parallel and serial
// constructs and their gang, worker and vector loops work: private-sections.c, e2e/.)
// RUN: not %ptxcc -fopenacc -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:

struct S { double *v; };
void f(int n, double *a, double *t, double (*t2)[4], struct S s) {
  // CHECK: diag-private-section.c:[[@LINE+1]]:36: error: ptxcc does not support the array section 't[0:4]' in 'private': private sections are supported on parallel and serial constructs and their loops, not in kernels regions
  #pragma acc kernels loop private(t[0:4]) copy(a[0:n])
  for (int i = 0; i < n; i++) { t[0] = i; a[i] = t[0]; }
  // CHECK: diag-private-section.c:[[@LINE+1]]:37: error: ptxcc does not support the array section 't[2:]' in 'firstprivate': a pointer's section needs its length (`c[lo:len]`)
  #pragma acc parallel firstprivate(t[2:]) copy(a[0:n])
  {
    #pragma acc loop
    for (int i = 0; i < n; i++) a[i] = t[i];
  }
  // CHECK: diag-private-section.c:[[@LINE+1]]:37: error: ptxcc does not support the array section 't2[0:n][0:4]' in 'private': only one-dimensional sections of a variable (`c[lo:len]`) are supported
  #pragma acc parallel loop private(t2[0:n][0:4]) copy(a[0:n])
  for (int i = 0; i < n; i++) a[i] = t2[i][0];
  // CHECK: diag-private-section.c:[[@LINE+1]]:37: error: ptxcc does not support the array section 's.v[0:n]' in 'private': only sections of pointers and of array variables are supported
  #pragma acc parallel loop private(s.v[0:n]) copy(a[0:n])
  for (int i = 0; i < n; i++) a[i] = s.v[i];
  #pragma acc parallel loop gang num_workers(2) copy(a[0:n])
  for (int i = 0; i < n; i++) {
    #pragma acc loop worker
    for (int k = 0; k < 2; k++) {
      // CHECK: diag-private-section.c:[[@LINE+1]]:39: error: ptxcc does not support the array section 't[0:4]' in 'private': a vector loop on the lanes of a worker's warp has no private sections in ptxcc: put the clause on the worker loop
      #pragma acc loop vector private(t[0:4])
      for (int j = 0; j < 4; j++) { t[j] = j; a[i] += t[j]; }
    }
  }
}
