// What libptxrt stops while a trans block runs, instead of computing wrong addresses: a
// kernel not compiled for the layout (launched from a function the block calls) that gets the
// converted copy; a data clause mapping part of the array; a second trans of the same bytes
// under another name.
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY not %t 1 2>&1 | FileCheck %s --check-prefix=CALLED
// CALLED: ptxrt: error: {{.*}}errors-runtime.c:21:1: kernel '{{.*}}' ({{.*}}) gets a pointer (parameter 0) into the device copy of 'a', which the trans at {{.*}}errors-runtime.c:{{[0-9]+}}:{{[0-9]+}} keeps in another layout, but the kernel was not compiled for it
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY not %t 2 2>&1 | FileCheck %s --check-prefix=PART
// PART: ptxrt: error: {{.*}}errors-runtime.c:40:1: variable 'a[0:2]': a data clause covering other bytes than the trans of 'a' at {{.*}}errors-runtime.c:{{[0-9]+}}:{{[0-9]+}}
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
    a[i][1] *= 2;
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
  printf("done\n");
  return 0;
}
