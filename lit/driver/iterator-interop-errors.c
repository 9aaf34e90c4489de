// Iterator modifiers ptxcc cannot turn into one array section, and the interop construct, are
// errors at the user's directive, never a transfer of the wrong elements or a link failure.
// RUN: not %ptxcc -fopenmp -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: panicked
#include <omp.h>
void f(int n, int *a, int (*m)[8]) {
  // CHECK: iterator-interop-errors.c:[[@LINE+1]]:24: error: ptxcc does not support an iterator with a step ('i = 0:n:2'); the elements it names are not one array section
#pragma omp target map(iterator(i = 0:n:2), to: a[i])
  a[0] = 1;
  // CHECK: iterator-interop-errors.c:[[@LINE+1]]:24: error: ptxcc does not support an iterator modifier with several iterators
#pragma omp target map(iterator(i = 0:n, j = 0:8), tofrom: m[i][j])
  a[0] = 1;
  // CHECK: iterator-interop-errors.c:[[@LINE+1]]:30: error: ptxcc supports an iterator modifier only on list items of the form 'base[i]' (they are one array section), not 'a[2 * i]'
#pragma omp target update to(iterator(i = 0:n): a[2 * i])
  omp_interop_t obj = omp_interop_none;
  // CHECK: iterator-interop-errors.c:[[@LINE+1]]:13: error: ptxcc does not support the 'interop' construct
#pragma omp interop init(targetsync: obj)
}
