// data construct and the data clauses: copy copyin copyout create no_create present deviceptr attach,
// on sections, whole arrays, scalars and struct members; readonly and zero modifiers.
// RUN: %ptxcc -fopenacc -fopenacc-print=omp %s | FileCheck %s

struct S { int n; double *v; };
void f(int n, float *a, float *b, float *d, struct S *s, struct S t) {
  float w[64];
  float x = 0;
  // CHECK: #pragma omp target data map(ompx_hold, tofrom: a[0:n]) map(ompx_hold, to: b[:n]) map(ompx_hold, from: w) map(ompx_hold, alloc: x) map(ompx_hold, alloc: d[1:__ptxrt_acc_no_create_len((const void *)(&d[1]), (unsigned long)((n-1) * sizeof(d[1])), (unsigned long)(n-1))]) map(ompx_hold, present, alloc: t)
  #pragma acc data copy(a[0:n]) copyin(readonly: b[:n]) copyout(w) create(x) no_create(d[1:n-1]) present(t)
  {
    // CHECK: #pragma omp target teams distribute parallel for map(ompx_hold, present, alloc: s->v[0:n]) map(tofrom: x)
    #pragma acc parallel loop present(s->v[0:n])
    for (int i = 0; i < n; i++) s->v[i] = x;
  }
  // CHECK: #pragma omp target data map(ompx_hold, tofrom: t.v[0:t.n]) map(ompx_hold, alloc: s->v[0:0])
  #pragma acc data copy(t.v[0:t.n]) attach(s->v)
  { }
  // CHECK: /* acc data: no data to map */
  #pragma acc data deviceptr(d)
  {
    // CHECK: #pragma omp target teams distribute parallel for is_device_ptr(d)
    #pragma acc parallel loop
    for (int i = 0; i < n; i++) d[i] = 0;
  }
  // zero: a device copy the clause creates starts as zeros.
  // Each generated line counts as the line it was generated for (the pragma's, the block's).
  // CHECK: { int __ptxcc_zf1 = !omp_target_is_present((const void *)(&a[0]), omp_get_default_device());
  // CHECK-NEXT: # [[@LINE+12]] "{{.*}}data.c"
  // CHECK-NEXT: #pragma omp target data map(ompx_hold, alloc: a[0:n])
  // CHECK-NEXT: # [[@LINE+11]] "{{.*}}data.c"
  // CHECK-NEXT: {
  // CHECK-NEXT: # [[@LINE+9]] "{{.*}}data.c"
  // CHECK-NEXT: if (__ptxcc_zf1) {
  // CHECK-NEXT: # [[@LINE+7]] "{{.*}}data.c"
  // CHECK-NEXT: { unsigned char *__ptxcc_zp2 = (unsigned char *)(&a[0]); unsigned long __ptxcc_zn2 = (unsigned long)((n) * sizeof(a[0]));
  // CHECK-NEXT: # [[@LINE+5]] "{{.*}}data.c"
  // CHECK-NEXT: #pragma omp target teams distribute parallel for map(present, alloc: __ptxcc_zp2[0:__ptxcc_zn2])
  // CHECK: a[0] = 1;
  // CHECK-NEXT: }}
  #pragma acc data create(zero: a[0:n])
  {
    a[0] = 1;
  }
}
