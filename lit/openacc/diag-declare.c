// A file-scope declare takes create, copyin, deviceptr, device_resident and link (OpenACC 3.3,
// 2.13) and whole variables: a section of a global array is the array, but a pointer's
// section or a member would otherwise be dropped silently (the pointer alone declared).
// RUN: not %ptxcc -fopenacc -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %ptxcc -fopenacc -fopenacc-print=omp -DGOOD %s | FileCheck %s --check-prefix=GOOD

#ifdef GOOD
double arr[100];
// GOOD: #pragma omp declare target to(arr)
#pragma acc declare create(arr[0:100])
#else
double *gp;
// CHECK: diag-declare.c:[[@LINE+1]]:28: error: 'gp[0:100]' in '#pragma acc declare' at file scope: only whole variables can be declared there; declare 'gp' and map the data it points to with 'enter data'
#pragma acc declare create(gp[0:100])
double s;
// CHECK: diag-declare.c:[[@LINE+1]]:21: error: clause 'copy' is not allowed on '#pragma acc declare' at file scope (only create, copyin, deviceptr, device_resident and link are)
#pragma acc declare copy(s)
struct { double x[4]; } st;
// CHECK: diag-declare.c:[[@LINE+1]]:28: error: 'st.x' in '#pragma acc declare' at file scope: only whole variables can be declared there; declare 'st'
#pragma acc declare copyin(st.x)
#endif
void f(void) {}
