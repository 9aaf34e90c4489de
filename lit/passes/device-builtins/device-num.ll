; omp_get_device_num() in device code loads the device global the runtime writes on each device
; once the image is loaded there (one image serves every device, so no constant can do).
; RUN: ptxcc-opt --passes=device-builtins %s | FileCheck %s
; RUN: ptxcc-opt --passes=device-builtins,nvptx-codegen %s | FileCheck %s --check-prefix=PTX
target triple = "nvptx64-nvidia-cuda"

; CHECK: @__ptxcc_device_num = addrspace(1) externally_initialized global i32 0, align 4
; CHECK-LABEL: define void @k(
; CHECK-NEXT: %ptxcc.device_num = load i32, ptr addrspace(1) @__ptxcc_device_num
; CHECK-NEXT: store i32 %ptxcc.device_num, ptr %out
; CHECK-NOT: @omp_get_device_num
; PTX: .visible .global .align 4 .u32 __ptxcc_device_num;
; PTX: ld.global.u32 {{.*}}[__ptxcc_device_num];
define void @k(ptr %out) {
  %d = call i32 @omp_get_device_num()
  store i32 %d, ptr %out
  ret void
}
declare i32 @omp_get_device_num()
!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}
