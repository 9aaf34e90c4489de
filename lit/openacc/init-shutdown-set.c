// init, shutdown and set become calls of the OpenACC runtime (declared here when openacc.h is not
// included; openacc.h's acc_device_t numbering: none 0, default 1, host 2, not_host 3, nvidia 4).
// RUN: %ptxcc -fopenacc -fopenacc-print=omp %s | FileCheck %s

// CHECK: void acc_init(int); void acc_shutdown(int); void acc_init_device(int, int); void acc_shutdown_device(int, int); void acc_set_device_type(int); void acc_set_device_num(int, int);
void f(int n) {
  // CHECK: { acc_init(4 /* acc_device_nvidia */); }
  #pragma acc init device_type(nvidia)
  // device_num: that device only; the current device stays.
  // CHECK: { acc_init_device(n, 1 /* acc_device_default */); }
  #pragma acc init device_num(n)
  // CHECK: if (n > 1) { acc_set_device_type(4 /* acc_device_nvidia */); acc_set_device_num(0, 4 /* acc_device_nvidia */); }
  #pragma acc set device_type(nvidia) device_num(0) if(n > 1)
  // CHECK: { acc_set_default_async(5); }
  #pragma acc set default_async(5)
  // CHECK: { acc_shutdown_device(n - 1, 4 /* acc_device_nvidia */); }
  #pragma acc shutdown device_num(n - 1) device_type(nvidia)
  // CHECK: { acc_shutdown(1 /* acc_device_default */); }
  #pragma acc shutdown
}
