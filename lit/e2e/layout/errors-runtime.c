// What libptxrt stops while a trans block runs, instead of computing wrong addresses: a
// kernel not compiled for the layout that gets the converted copy (a pointer passed on by a
// function the block calls: layout versions reach only the kernels of the functions the block
// calls itself, which run as a version compiled for the layout, case 1); a data
// clause mapping part of the array; a second trans of the same bytes under another name.
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY PTXRT_DEBUG=1 %t 1 2> %t.log | FileCheck %s --check-prefix=VERSION
// RUN: FileCheck %s --check-prefix=VERSION-LAUNCH < %t.log
// VERSION: done: a[3][1] = 6
// VERSION-LAUNCH: kernel '__omp_offloading_{{.*}}_scale_l[[#]]_layout1'
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY not %t 5 2>&1 | FileCheck %s --check-prefix=CALLED
// CALLED: ptxrt: error: {{.*}}errors-runtime.c:[[#]]:1: kernel '{{.*}}' ({{.*}}) gets a pointer (parameter 0) into the device copy of 'a', which the trans at {{.*}}errors-runtime.c:{{[0-9]+}}:{{[0-9]+}} keeps in another layout, but the kernel was not compiled for it
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY not %t 2 2>&1 | FileCheck %s --check-prefix=PART
// PART: ptxrt: error: {{.*}}errors-runtime.c:[[#]]:1: variable 'a[0:2]': a data clause covering other bytes than 'a' (laid out by the trans at {{.*}}errors-runtime.c:{{[0-9]+}}:{{[0-9]+}}: 2048 bytes from host {{.*}}): map exactly those
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY not %t 3 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY not %t 4 2>&1 | FileCheck %s --check-prefix=ATTACHED
// ATTACHED: ptxrt: error: {{.*}}errors-runtime.c:{{[0-9]+}}:{{[0-9]+}}: kernel '{{.*}}' ({{.*}}) is launched while a pointer in the device copy of 's' points into the device copy of 'a'
// TWICE: ptxrt: error: {{.*}}errors-runtime.c:{{[0-9]+}}:{{[0-9]+}}: 'p' overlaps 'a', whose layout the trans at {{.*}} already changes
#include <stdio.h>
#include <stdlib.h>

#define N 16
double a[N][N];

static void scale(void) {
#pragma omp target teams distribute parallel for map(tofrom : a)
  for (int i = 0; i < N; i++)
    a[i][1] += 2 * i;
}

static void scale_flat(double *q) {
#pragma omp target teams distribute parallel for map(tofrom : q[0:N * N])
  for (int i = 0; i < N; i++)
    q[i * N + 1] += 2 * i;
}

static void through(void) {
  scale_flat(&a[0][0]);
}

int main(int argc, char **argv) {
  int what = argc > 1 ? atoi(argv[1]) : 0;
  double *p = &a[0][0];
#pragma ptxcc trans transpose(a[0:N][0:N], [2,1])
  {
#pragma omp target data map(tofrom : a)
    {
#pragma omp target teams distribute parallel for
      for (int i = 0; i < N; i++)
        a[i][0] = i;
      if (what == 1)
        scale();
      if (what == 5)
        through();
    }
    if (what == 2) {
#pragma omp target data map(tofrom : a[0:2])
      {
      }
    }
    if (what == 4) {
      struct {
        double *q;
      } s = {&a[0][0]};
#pragma omp target data map(to : s) map(tofrom : s.q[0:N * N])
#pragma omp target map(tofrom : s)
      s.q[1] = 1;
    }
    if (what == 3) {
#pragma ptxcc trans transpose(p[0:N*N], [1])
#pragma omp target teams distribute parallel for map(tofrom : p[0:N*N])
      for (int i = 0; i < N * N; i++)
        p[i] += 1;
    }
  }
  printf("done: a[3][1] = %g\n", a[3][1]);
  return 0;
}
