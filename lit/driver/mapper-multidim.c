// Map items over multi-dimensional arrays of structs that a mapper applies to
// (driver/src/omp_front/mapper_items.rs): the spellings clang 19 maps without the mapper are
// rewritten to ones it maps through it (the same bytes); where there is none, a located error
// says how to map the structs through a pointer. Structs without a mapper, and 1-D arrays, are
// left as written. lit/e2e/mapper-multidim.c runs the rewritten forms.
// RUN: rm -rf %t && mkdir -p %t && cd %t && %ptxcc -fopenmp -save-temps -c %s -o m.o
// RUN: FileCheck %s --check-prefix=TEXT < %t/mapper-multidim.ompf.i
// RUN: not %ptxcc -fopenmp -c -DTHREE_D %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=THREE
// RUN: not %ptxcc -fopenmp -c -DPARTIAL %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=PARTIAL
// RUN: not %ptxcc -fopenmp -c -DMEMBER %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=MEMBER
// Without libclang's tree nothing is rewritten, and a warning says the items went unchecked
// (clang then refuses the named mapper on the whole 2-D array itself).
// RUN: env PTXCC_TEST_LIBCLANG_FAULT=parse not %ptxcc -fopenmp -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOTREE
// NOTREE: mapper-multidim.c:{{[0-9]+}}:13: warning: ptxcc could not check the map items of this translation unit against its mappers (clang 19 maps a multi-dimensional array of structs without their mapper in most spellings):
typedef struct {
  int n;
  double *x;
} vec;
#pragma omp declare mapper(vec v) map(v, v.x[0 : v.n])
struct plain {
  double a, b;
};
#pragma omp declare mapper(halo : struct plain s) map(s)

vec g[4][3];

void f(int n, vec (*p)[3], vec *one) {
  vec a[5][3];
  struct plain q[5][3];
#if defined(THREE_D)
  vec b[2][5][3];
  // THREE: mapper-multidim.c:[[@LINE+1]]:32: error: clang 19 does not apply the mapper of 'vec' reliably to the structs of 'b[0:2]' (a 3-dimensional array): their pointer members would reach the device unattached; map them through a pointer to the first one: 'vec *b_p = &b[0][0][0];' before the construct, then 'b_p[0:30]' (the construct still finds 'b' present)
#pragma omp target map(tofrom: b[0:2])
  b[0][0][0].n = 1;
#elif defined(MEMBER)
  struct {
    int tag;
    vec cube[2][5][3];
  } s;
  // MEMBER: mapper-multidim.c:[[@LINE+1]]:32: error: clang 19 does not apply the mapper of 'vec' reliably to the structs of 's.cube' (a 3-dimensional array): their pointer members would reach the device unattached; map them through a pointer to the first one: 'vec *cube_p = &s.cube[0][0][0];' before the construct, then 'cube_p[0:30]' (the construct still finds 's.cube' present)
#pragma omp target map(tofrom: s.cube)
  s.cube[0][0][0].n = 1;
#elif defined(PARTIAL)
  // PARTIAL: mapper-multidim.c:[[@LINE+1]]:36: error: clang 19 does not apply the mapper of 'vec' reliably to the structs of 'a[0:5][1:2]' (rows with only part of each row): their pointer members would reach the device unattached; map whole rows with one section ('a[lo:n]'), or map them through a pointer to the first one: 'vec *a_p = &a[0][0];' before the construct, then 'a_p[0:15]' (the construct still finds 'a' present)
#pragma omp target map(to: g[0:4], a[0:5][1:2])
  a[0][1].n = 1;
#else
  // TEXT: #pragma omp target map(tofrom: a[0:sizeof(a)/sizeof((a)[0])]) map(to: g[0:4], p[0:n])
#pragma omp target map(tofrom: a) map(to: g[0:4][0:3], p[0:n][:])
  a[0][0].n = g[0][0].n + p[0][0].n;
  // A named mapper, on the whole array.
  // TEXT: #pragma omp target enter data map(mapper(halo), to: q[0:sizeof(q)/sizeof((q)[0])])
#pragma omp target enter data map(mapper(halo), to: q)
  // No mapper applies: as written. 1-D and indices: clang's.
  // TEXT: #pragma omp target update from(q) to(one[0:n], a[1][2])
#pragma omp target update from(q) to(one[0:n], a[1][2])
  // The whole 2-D array in `target update`: a full section per dimension, which strided_update
  // moves element by element through clang's update of one element (that one applies the mapper).
  // TEXT: _Pragma("omp target update from(g[(0) + __ptxcc_i0 * (1)][(0) + __ptxcc_i1 * (1) : 1])")
#pragma omp target update from(g)
#endif
}
