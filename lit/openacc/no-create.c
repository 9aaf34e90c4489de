// no_create: present data is used (and held for the region), absent data is neither allocated
// nor copied and the region gets the host address. Each list item is a section whose length is
// the runtime's answer to "is it present?": the length when it is, 0 when not, and a zero-length
// section that is not mapped keeps the host address (OpenMP 5.1). A pointer is p[0:0] (the data
// it points to); a scalar or a struct has no section form: when absent the region gets a copy of
// the host value (-fptxcc-info says so).
// RUN: %ptxcc -fopenacc -fopenacc-print=omp %s | FileCheck %s
// RUN: %ptxcc -fopenacc -fopenacc-print=omp -fptxcc-info %s 2>&1 >/dev/null | FileCheck --check-prefix=INFO %s
// RUN: not %ptxcc -fopenacc -fopenacc-print=omp -DBAD %s 2>&1 | FileCheck --check-prefix=BAD %s

// CHECK: unsigned long __ptxrt_acc_no_create_len(const void *, unsigned long, unsigned long); /* ptxcc: no_create */
struct S { float x[10]; int k; };
float ga[100];
void f(int n, float *p, float (*m)[8], struct S *ps) {
  float a[100];
  int s = 3;
  struct S st;
  // A section: its length asks the runtime.
  // CHECK: #pragma omp target teams distribute parallel for map(ompx_hold, alloc: p[1:__ptxrt_acc_no_create_len((const void *)(&p[1]), (unsigned long)((n - 1) * sizeof(p[1])), (unsigned long)(n - 1))])
  #pragma acc parallel loop no_create(p[1:n - 1])
  for (int i = 1; i < n; i++) p[i] += 1;
  // A whole array, an array with the length left out, an element, a member section, the
  // first section of a 2-D subarray.
  // CHECK: #pragma omp target teams distribute parallel for map(ompx_hold, alloc:
  // CHECK-SAME: a[0:__ptxrt_acc_no_create_len((const void *)(&a[0]), (unsigned long)((sizeof(a) / sizeof((a)[0])) * sizeof(a[0])), (unsigned long)(sizeof(a) / sizeof((a)[0])))],
  // CHECK-SAME: ga[2:__ptxrt_acc_no_create_len((const void *)(&ga[2]), (unsigned long)((sizeof(ga) / sizeof((ga)[0]) - (2)) * sizeof(ga[2])), (unsigned long)(sizeof(ga) / sizeof((ga)[0]) - (2)))],
  // CHECK-SAME: st.x[3:__ptxrt_acc_no_create_len((const void *)(&st.x[3]), (unsigned long)((1) * sizeof(st.x[3])), (unsigned long)(1))],
  // CHECK-SAME: ps->x[0:__ptxrt_acc_no_create_len((const void *)(&ps->x[0]), (unsigned long)((4) * sizeof(ps->x[0])), (unsigned long)(4))],
  // CHECK-SAME: m[1:__ptxrt_acc_no_create_len((const void *)(&m[1][0]), (unsigned long)(((2) * (8)) * sizeof(m[1][0])), (unsigned long)(2))][0:8])
  #pragma acc parallel loop no_create(a, ga[2:], st.x[3], ps->x[0:4], m[1:2][0:8])
  for (int i = 0; i < 8; i++) a[i] = ga[i + 2] + st.x[3] + ps->x[i % 4] + m[1][i];
  // A pointer: the data it points to, as a zero-length section.
  // CHECK: #pragma omp target data map(ompx_hold, alloc: p[0:0])
  #pragma acc data no_create(p)
  { }
  // A scalar and a struct: present → used, absent → a copy for the region.
  // CHECK: #pragma omp target teams num_teams(1) map(ompx_hold, tofrom: s, st)
  // INFO: no-create.c:[[@LINE+2]]: no_create(s, st): not an array or pointer, so not left unmapped when absent: a copy of the host value for the region
  #pragma acc parallel no_create(s, st)
  { s += st.k; }
  // kernels: the region's target data and each of its kernels map the same sections, so
  // absent data reaches every kernel as the host address.
  // CHECK: #pragma omp target data map(ompx_hold, alloc: p[0:__ptxrt_acc_no_create_len((const void *)(&p[0]), (unsigned long)((n) * sizeof(p[0])), (unsigned long)(n))])
  // CHECK: #pragma omp target teams distribute parallel for map(ompx_hold, alloc: p[0:__ptxrt_acc_no_create_len((const void *)(&p[0]), (unsigned long)((n) * sizeof(p[0])), (unsigned long)(n))])
  #pragma acc kernels no_create(p[0:n])
  {
    for (int i = 0; i < n; i++) p[i] = 0;
  }
#ifdef BAD
  // BAD: no-create.c:[[@LINE+1]]:39: error: no_create(p[2:]) needs the length of the subarray (it cannot be inferred from the declaration)
  #pragma acc parallel loop no_create(p[2:])
  for (int i = 2; i < n; i++) p[i] = 0;
#endif
}
