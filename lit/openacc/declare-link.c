// declare link: the variable is an ordinary global, mapped where data clauses name it (device
// memory only there); in a function likewise (no enter data). ptxcc has no device-side link
// pointer, so a device function (a routine, or a function a compute construct or another device
// function calls) that uses a link variable is an error at the use.
// RUN: %ptxcc -fopenacc -fopenacc-print=omp %s | FileCheck %s
// RUN: %ptxcc -fopenacc -fopenacc-print=omp -fptxcc-info %s 2>&1 >/dev/null | FileCheck --check-prefix=INFO %s
// RUN: not %ptxcc -fopenacc -fopenacc-print=omp -DBAD %s 2>&1 | FileCheck --check-prefix=BAD %s

double big[1000];
float coef[10];
int n_used;
// CHECK: #pragma omp declare target to(coef)
// CHECK-NEXT: # {{[0-9]+}} "{{.*}}declare-link.c"
// CHECK-NEXT: /* acc declare link(big, n_used): mapped by the data clauses that name it */
// INFO: declare-link.c:[[@LINE+2]]: declare: coef allocated on the device for the whole program
// INFO: declare-link.c:[[@LINE+1]]: declare link: big, n_used on the device only where a data clause maps it
#pragma acc declare create(coef) link(big, n_used)

extern double ext[100];

#pragma acc routine seq
static double scale(double x) { return 2 * x; }

void f(int n) {
  // CHECK: /* acc declare link: mapped by the data clauses that name it */
  #pragma acc declare link(ext)
  // The region uses the mapped copy; the global scalar is the device copy too.
  // CHECK: #pragma omp target data map(ompx_hold, to: big) map(ompx_hold, tofrom: n_used)
  #pragma acc data copyin(big) copy(n_used)
  {
    // CHECK: #pragma omp target teams distribute parallel for map(ompx_hold, tofrom: ext) reduction(+: n_used)
    #pragma acc parallel loop copy(ext) reduction(+: n_used)
    for (int i = 0; i < 100; i++) { ext[i] = scale(big[i]); n_used += 1; }
  }
}

#ifdef BAD
// BAD: declare-link.c:[[@LINE+1]]:35: error: ptxcc does not support 'declare link' variables in device functions: 'big' (declare link on line 17) is used in 'get', which runs on the device; declare it with 'declare create' or 'declare copyin', or pass it to the function
static double get(int i) { return big[i]; }
// BAD: declare-link.c:[[@LINE+1]]:32: error: ptxcc does not support 'declare link' variables in device functions: 'n_used' (declare link on line 17) is used in 'bump', which runs on the device
static void bump(void) { (void)n_used++; }
#pragma acc routine seq
static double via(int i) { bump(); return get(i); }
void g(double *out) {
  #pragma acc parallel loop copyout(out[0:10]) copyin(big)
  for (int i = 0; i < 10; i++) out[i] = via(i) + big[i];
}
#endif
