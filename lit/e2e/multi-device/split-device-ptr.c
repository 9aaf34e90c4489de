// A loop that takes a device pointer by value (is_device_ptr) is not split: the pointer is
// valid on the device that allocated it only (and not on the host), so the loop runs there,
// whether compiled with -fptxcc-multi-device or -fptxcc-hybrid, and gives the serial answer.
// (Split over two devices, device 1 would dereference device 0's memory: ptxsim reports an
// illegal address.) The compiler sees it in the launch's map types (passes/src/offload_launch.rs)
// and says so; the runtime's own check of each launch is the safety net for launches the
// compiler cannot read.
// RUN: %ptxcc -fopenmp -fptxcc-hybrid -fptxcc-info -O2 -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=INFO
// INFO: split-device-ptr.c:[[#LOOP:]]:1: not split over devices: argument 2 is a pointer passed by value (is_device_ptr, deviceptr): it points into one device's memory (or the host's)
// INFO: split-device-ptr.c:[[#LOOP+4]]:1: not split over devices: argument 3 is a pointer passed by value
// INFO-NOT: hybrid: the host's threads
// RUN: %ptxcc -fopenmp -fptxcc-multi-device -O2 %s -o %t
// RUN: env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 PTXRT_DEBUG=1 %run %t 2>&1 | FileCheck %s
// RUN: %ptxcc -fopenmp -fptxcc-hybrid -O2 %s -o %t.hybrid
// RUN: env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 PTXRT_DEBUG=1 %run %t.hybrid 2>&1 | FileCheck %s
// RUN: env PTXRT_CPU_WEIGHT=0.5 PTXRT_DEBUG=1 %run %t.hybrid 2>&1 | FileCheck %s
// CHECK-NOT: ptxrt: split
// CHECK: sum 499500 PASS
#include <omp.h>
#include <stdio.h>

int main(void) {
  int n = 1000, dev = omp_get_default_device();
  double *p = omp_target_alloc(n * sizeof(double), dev);
  double s = 0;
#pragma omp target teams distribute parallel for is_device_ptr(p)
  for (int i = 0; i < n; i++)
    p[i] = i;
  // The sum goes through the second loop, which reads what the first wrote.
#pragma omp target teams distribute parallel for is_device_ptr(p) reduction(+ : s)
  for (int i = 0; i < n; i++)
    s += p[i];
  printf("sum %.0f %s\n", s, s == 499500 ? "PASS" : "FAIL");
  omp_target_free(p, dev);
  return 0;
}
