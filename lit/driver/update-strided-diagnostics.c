// What ptxcc cannot do with a strided or multi-dimensional `target update` item is a located
// error, never a contiguous copy: a mapper modifier (the driver's own check), rows reached
// through pointers (a compile-time assertion in the code ptxcc generates, at the pragma's line).
// RUN: not %ptxcc -fopenmp -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=MAPPER
// RUN: not %ptxcc -fopenmp -c -DPOINTER_ROWS %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=ROWS
// RUN: not %ptxcc -fopenmp -c -DSTRUCTS %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=STRUCTS
struct S {
  int n;
  double *x;
};
#pragma omp declare mapper(id : struct S s) map(s.x[0:s.n])

void f(int n, struct S *arr, double **rows) {
#if !defined(POINTER_ROWS) && !defined(STRUCTS)
  // MAPPER: update-strided-diagnostics.c:[[@LINE+2]]:42: error: ptxcc does not support a 'mapper' modifier on the strided or multi-dimensional section 'arr[0:n:2]' in 'target update'
  // MAPPER-NOT: panicked
#pragma omp target update to(mapper(id): arr[0:n:2])
#elif defined(POINTER_ROWS)
  // ROWS: update-strided-diagnostics.c:[[@LINE+1]]:{{[0-9]+}}: error: static assertion failed{{.*}}ptxcc: a strided or multi-dimensional section in target update needs every dimension after the first to be an array, not a pointer: update each row of 'rows[0:n][0:4:2]' on its own
#pragma omp target update from(rows[0:n][0:4:2])
#else
  // STRUCTS: update-strided-diagnostics.c:[[@LINE+1]]:{{[0-9]+}}: error: static assertion failed{{.*}}ptxcc: 'arr[0:n:2]' is a strided or multi-dimensional section of structs and this file declares a mapper
#pragma omp target update from(arr[0:n:2])
#endif
}
