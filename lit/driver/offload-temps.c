// With an offload region, -save-temps keeps all four intermediates DESIGN.md names: NAME.i,
// NAME.host.ll, NAME.device.ll (nvptx64) and NAME.ptx (for the chosen sm).
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %ptxcc -save-temps -O2 -c %s
// RUN: ls | FileCheck %s --check-prefix=FILES
// FILES: offload-temps.device.ll
// FILES-NEXT: offload-temps.host.bc
// FILES-NEXT: offload-temps.host.ll
// FILES-NEXT: offload-temps.i
// FILES-NEXT: offload-temps.o
// FILES-NEXT: offload-temps.ptx
// RUN: FileCheck %s --check-prefix=PTX -DARCH=sm_90 < offload-temps.ptx
// PTX: .version
// PTX: .target [[ARCH]]
// PTX: .address_size 64
// PTX: .entry __omp_offloading_{{.*}}scale_l[[@LINE+12]](
// RUN: FileCheck %s --check-prefix=DEV < offload-temps.device.ll
// DEV: target triple = "nvptx64-nvidia-cuda"
// RUN: FileCheck %s --check-prefix=HOST < offload-temps.host.ll
// HOST: target triple = "x86_64
// HOST: call {{.*}}@__tgt_target_kernel(
//
// --offload-arch reaches the PTX.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %ptxcc -save-temps --offload-arch=sm_80 -c %s
// RUN: FileCheck %s --check-prefix=PTX -DARCH=sm_80 < offload-temps.ptx
void scale(int n, float *v) {
#pragma omp target teams distribute parallel for map(tofrom : v[0:n])
  for (int i = 0; i < n; i++)
    v[i] *= 2.0f;
}
