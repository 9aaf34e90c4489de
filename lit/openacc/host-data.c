// host_data use_device: the device address of a pointer or an array inside the block.
// RUN: %ptxcc -fopenacc -fopenacc-print=omp %s | FileCheck %s

void use(float *);
void f(int n, float *p) {
  float a[16];
  // CHECK: #pragma omp target data use_device_ptr(p) use_device_addr(a)
  #pragma acc host_data use_device(p, a)
  { use(p); use(a); }
  // CHECK: #pragma omp target data use_device_ptr(p) if(n)
  #pragma acc host_data use_device(p) if(n) if_present
  use(p);
}
