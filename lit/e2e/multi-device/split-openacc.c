// -fptxcc-multi-device under -fopenacc: `parallel loop` and `kernels` loops split over the
// devices like OpenMP's combined constructs, reductions included; acc_set_device_num keeps its
// meaning only for the constructs that follow... and the answers are the serial ones.
// RUN: %ptxcc -fopenacc -fptxcc-multi-device -fptxcc-info -O2 %s -o %t 2>&1 | FileCheck %s --check-prefix=INFO
// RUN: env PTXRT_EMU_DEVICES=1 PTXSIM_DEVICES=1 %run %t | FileCheck %s
// RUN: env PTXRT_EMU_DEVICES=3 PTXSIM_DEVICES=3 %run %t | FileCheck %s
// RUN: env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 PTXRT_DEBUG=1 %run %t 2>&1 | FileCheck %s --check-prefix=SPLIT
// RUN: %ptxcc -fopenacc -fptxcc-hybrid -O2 %s -o %t.hybrid
// RUN: env PTXRT_CPU_WEIGHT=0.4 %run %t.hybrid | FileCheck %s
// RUN: env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 %run %t.hybrid | FileCheck %s
// RUN: env PTXRT_CPU_WEIGHT=0.4 PTXRT_DEBUG=1 %run %t.hybrid 2>&1 | FileCheck %s --check-prefix=HYBRID
// HYBRID-COUNT-3: ptxrt: split {{.*}}, {{[0-9]+}} iterations: [0, {{[0-9]+}}) on device 0, [{{[0-9]+}}, {{[0-9]+}}) on the host
// INFO-COUNT-3: split over devices: each device runs a contiguous part
// CHECK: max error 0 sum 1999000 dot 2664667000
// SPLIT-COUNT-3: ptxrt: split {{.*}}, {{[0-9]+}} iterations: [0, {{[0-9]+}}) on device 0, [{{[0-9]+}}, {{[0-9]+}}) on device 1
#include <stdio.h>

#define N 2000
static double x[N], y[N];

int main(void) {
  for (int i = 0; i < N; i++)
    x[i] = i;
#pragma acc parallel loop copyin(x) copyout(y)
  for (int i = 0; i < N; i++)
    y[i] = 2 * x[i];
  double sum = 0;
#pragma acc parallel loop reduction(+ : sum) copyin(y)
  for (int i = 0; i < N; i++)
    sum += y[i] / 2;
  double dot = 0;
#pragma acc kernels copyin(x, y)
  {
#pragma acc loop reduction(+ : dot)
    for (int i = 0; i < N; i++)
      dot += x[i] * y[i] / 2;
  }
  double err = 0;
  for (int i = 0; i < N; i++)
    err += y[i] != 2.0 * i;
  printf("max error %g sum %.0f dot %.0f\n", err, sum, dot);
  return 0;
}
