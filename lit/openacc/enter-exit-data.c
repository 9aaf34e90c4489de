// enter data / exit data: unstructured lifetimes; finalize turns a release into a delete.
// RUN: %ptxcc -fopenacc -fopenacc-print=omp %s | FileCheck %s

// CHECK: void __ptxrt_acc_finalize(const void *, unsigned long);

void f(int n, float *a, float *b, int c) {
  // CHECK: #pragma omp target enter data map(to: a[0:n]) map(alloc: b[0:n]) if(c)
  #pragma acc enter data copyin(a[0:n]) create(b[0:n]) if(c)
  // CHECK: #pragma omp target exit data map(from: b[0:n]) map(release: a[0:n])
  #pragma acc exit data copyout(b[0:n]) delete(a[0:n])
  // CHECK: #pragma omp target exit data map(delete: a[0:n]) nowait depend(inout: __ptxcc_acc_queue[(unsigned)(2) % 64u])
  #pragma acc exit data delete(a[0:n]) finalize async(2)
  // copyout + finalize: the runtime lowers the dynamic count to one, the exit data's from
  // takes it to zero (OpenMP has no from with delete); the if condition is evaluated once.
  // CHECK: {{^}}{
  // CHECK-NEXT: # {{[0-9]+}} "{{.*}}enter-exit-data.c"
  // CHECK-NEXT: __ptxrt_acc_finalize((const void *)(&b[0]), (unsigned long)((n) * sizeof(b[0])));
  // CHECK-NEXT: # {{[0-9]+}} "{{.*}}enter-exit-data.c"
  // CHECK-NEXT: #pragma omp target exit data map(from: b[0:n]) map(delete: a[0:n])
  // CHECK-NEXT: # {{[0-9]+}} "{{.*}}enter-exit-data.c"
  // CHECK-NEXT: }
  #pragma acc exit data copyout(b[0:n]) delete(a[0:n]) finalize
  // CHECK: {{^}}{
  // CHECK-NEXT: # {{[0-9]+}} "{{.*}}enter-exit-data.c"
  // CHECK-NEXT: int [[F:__ptxcc_fc[0-9]+]] = (c);
  // CHECK-NEXT: # {{[0-9]+}} "{{.*}}enter-exit-data.c"
  // CHECK-NEXT: #pragma omp taskwait
  // CHECK-NEXT: # {{[0-9]+}} "{{.*}}enter-exit-data.c"
  // CHECK-NEXT: if ([[F]]) { __ptxrt_acc_finalize((const void *)(&b[0]), (unsigned long)((n) * sizeof(b[0]))); }
  // CHECK-NEXT: # {{[0-9]+}} "{{.*}}enter-exit-data.c"
  // CHECK-NEXT: #pragma omp target exit data map(from: b[0:n]) if([[F]]) nowait depend(inout: __ptxcc_acc_queue[(unsigned)(1) % 64u])
  // CHECK-NEXT: # {{[0-9]+}} "{{.*}}enter-exit-data.c"
  // CHECK-NEXT: }
  #pragma acc exit data copyout(b[0:n]) finalize if(c) async(1)
  // CHECK: { int __ptxcc_zf{{[0-9]+}} = !omp_target_is_present((const void *)(&b[0]), omp_get_default_device());
  // CHECK-NEXT: # {{[0-9]+}} "{{.*}}enter-exit-data.c"
  // CHECK-NEXT: #pragma omp target enter data map(alloc: b[0:n])
  // CHECK-NEXT: # {{[0-9]+}} "{{.*}}enter-exit-data.c"
  // CHECK-NEXT: if (__ptxcc_zf{{[0-9]+}}) {
  // CHECK-NEXT: # {{[0-9]+}} "{{.*}}enter-exit-data.c"
  // CHECK-NEXT: { unsigned char *__ptxcc_zp{{[0-9]+}}
  #pragma acc enter data create(zero: b[0:n])
  // CHECK: #pragma omp target exit data map(release: b[0:0])
  #pragma acc exit data detach(b)
}
