// What ptxcc cannot do with a strided or multi-dimensional `target update` item is a located
// error, never a contiguous copy: rows reached through pointers (a compile-time assertion in the
// code ptxcc generates, at the pragma's line). Items a mapper applies to (a mapper modifier, or
// a struct type while the file declares a mapper) compile: they go element by element through
// clang's update (lit/e2e/update-strided-mapper.c runs them).
// RUN: %ptxcc -fopenmp -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=MAPPER --allow-empty
// RUN: not %ptxcc -fopenmp -c -DPOINTER_ROWS %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=ROWS
// RUN: %ptxcc -fopenmp -c -DSTRUCTS %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=MAPPER --allow-empty
struct S {
  int n;
  double *x;
};
#pragma omp declare mapper(id : struct S s) map(s, s.x[0:s.n])

void f(int n, struct S *arr, double **rows) {
#if !defined(POINTER_ROWS) && !defined(STRUCTS)
  // MAPPER-NOT: error
  // MAPPER-NOT: panicked
#pragma omp target update to(mapper(id): arr[0:n:2])
#elif defined(POINTER_ROWS)
  // ROWS: update-strided-diagnostics.c:[[@LINE+1]]:{{[0-9]+}}: error: static assertion failed{{.*}}ptxcc: a strided or multi-dimensional section in target update needs every dimension after the first to be an array, not a pointer: update each row of 'rows[0:n][0:4:2]' on its own
#pragma omp target update from(rows[0:n][0:4:2])
#else
#pragma omp target update from(arr[0:n:2])
#endif
}
