// A file-scope declare takes create, copyin, deviceptr, device_resident and link (OpenACC 3.3,
// 2.13), on whole variables: a section of a global array is the array; a pointer's section
// declares the pointer only (there is no extent at file scope) and a member the whole
// variable, each with a warning, where the section used to be dropped without a word.
// RUN: not %ptxcc -fopenacc -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %ptxcc -fopenacc -fopenacc-print=omp -DGOOD %s 2>%t.err | FileCheck %s --check-prefix=GOOD
// RUN: FileCheck %s --check-prefix=WARN < %t.err

#ifdef GOOD
double arr[100];
// GOOD: #pragma omp declare target to(arr)
#pragma acc declare create(arr[0:100])
double *gp;
// WARN: diag-declare.c:[[@LINE+2]]:28: warning: 'gp[0:100]' in '#pragma acc declare' at file scope: the pointer 'gp' is declared, not the data it points to: map that with 'enter data'
// GOOD: #pragma omp declare target to(gp)
#pragma acc declare create(gp[0:100])
struct { double x[4]; } st;
// WARN: diag-declare.c:[[@LINE+2]]:28: warning: 'st.x' in '#pragma acc declare' at file scope: the whole variable 'st' is declared
// GOOD: #pragma omp declare target to(st)
#pragma acc declare copyin(st.x)
#else
double s;
// CHECK: diag-declare.c:[[@LINE+1]]:21: error: clause 'copy' is not allowed on '#pragma acc declare' at file scope (only create, copyin, deviceptr, device_resident and link are)
#pragma acc declare copy(s)
// CHECK: diag-declare.c:[[@LINE+1]]:21: error: clause 'present' is not allowed on '#pragma acc declare' at file scope
#pragma acc declare present(s)

// A goto out of a function-scope declare's block (or back before it) would skip the exit of
// its data; a goto within the block is fine.
void g(int n, double *x) {
  double t[10];
  {
    #pragma acc declare create(t)
    for (int k = 0; k < n; k++) {
      // CHECK: diag-declare.c:[[@LINE+1]]:21: error: this goto leaves the scope of the '#pragma acc declare' of line [[@LINE-2]] (or jumps back before it), which would skip the end of its data lifetime; end the scope with a block of its own, or use 'data' and 'enter/exit data'
      if (x[k] < 0) goto out;
      if (x[k] > 9) goto next;
      x[k] = 1;
      next: ;
    }
  }
out:
  return;
}
#endif
void f(void) {}
