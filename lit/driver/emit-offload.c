// --emit=ptx and --emit=device-ir write just that artifact of the offload pipeline: to -o, to
// standard output with -o -, or to NAME.ptx / NAME.device.ll; no object, no intermediates.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %ptxcc --emit=ptx -O2 %s -o kernel.ptx
// RUN: FileCheck %s --check-prefix=PTX -DARCH=sm_90 < kernel.ptx
// RUN: %ptxcc --emit=ptx -O2 --offload-arch=sm_80 %s -o - | FileCheck %s --check-prefix=PTX -DARCH=sm_80
// RUN: %ptxcc --emit=ptx %s
// RUN: FileCheck %s --check-prefix=PTX -DARCH=sm_90 < emit-offload.ptx
// PTX: .version
// PTX: .target [[ARCH]]
// PTX: .visible .entry __omp_offloading_{{.*}}axpy_l[[@LINE+24]](
// PTX-NOT: __kmpc_
// PTX-NOT: call{{.*}}__tgt
//
// RUN: %ptxcc --emit=device-ir -O2 %s -o device.ll
// RUN: FileCheck %s --check-prefix=DEV < device.ll
// RUN: %ptxcc --emit=device-ir %s
// RUN: FileCheck %s --check-prefix=DEV < emit-offload.device.ll
// DEV: target triple = "nvptx64-nvidia-cuda"
// DEV: define {{.*}}@__omp_offloading_{{.*}}axpy_l
//
// RUN: ls | FileCheck %s --check-prefix=FILES
// FILES-NOT: .o
// FILES-NOT: .i
// FILES: device.ll
// FILES-NEXT: emit-offload.device.ll
// FILES-NEXT: emit-offload.ptx
// FILES-NEXT: kernel.ptx
//
// A source without offload regions has no PTX, so a warning and an empty file.
// RUN: %ptxcc --emit=ptx %S/Inputs/helper.c -o none.ptx 2>&1 | FileCheck %s --check-prefix=NONE
// NONE: ptxcc: warning: no PTX was produced for '{{.*}}helper.c' (it has no offload regions); 'none.ptx' is empty
// RUN: count 0 < none.ptx
void axpy(int n, double a, const double *x, double *y) {
#pragma omp target teams distribute parallel for map(to : x[0:n]) map(tofrom : y[0:n])
  for (int i = 0; i < n; i++)
    y[i] += a * x[i];
}
