// enter data / exit data: unstructured lifetimes; finalize turns a release into a delete.
// RUN: %ptxcc -fopenacc -fopenacc-print=omp %s | FileCheck %s

void f(int n, float *a, float *b, int c) {
  // CHECK: #pragma omp target enter data map(to: a[0:n]) map(alloc: b[0:n]) if(c)
  #pragma acc enter data copyin(a[0:n]) create(b[0:n]) if(c)
  // CHECK: #pragma omp target exit data map(from: b[0:n]) map(release: a[0:n])
  #pragma acc exit data copyout(b[0:n]) delete(a[0:n])
  // CHECK: #pragma omp target exit data map(delete: a[0:n]) nowait depend(inout: __ptxcc_acc_queue[(unsigned)(2) % 64u])
  #pragma acc exit data delete(a[0:n]) finalize async(2)
  // CHECK: { int __ptxcc_zf1 = !omp_target_is_present((const void *)(&b[0]), omp_get_default_device());
  // CHECK-NEXT: #pragma omp target enter data map(alloc: b[0:n])
  // CHECK-NEXT: if (__ptxcc_zf1) {
  // CHECK-NEXT: { unsigned char *__ptxcc_zp2
  #pragma acc enter data create(zero: b[0:n])
  // CHECK: #pragma omp target exit data map(release: b[0:0])
  #pragma acc exit data detach(b)
}
