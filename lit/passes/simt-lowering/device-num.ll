; The device-number global (omp_get_device_num()) becomes the emulator's PTXEMU_DEVICE_NUM
; register: the emulated devices share one copy of the code, each launch sets its device's number.
; RUN: ptxcc-opt --passes=simt-lowering %s | FileCheck %s
target triple = "nvptx64-nvidia-cuda"
@__ptxcc_device_num = addrspace(1) externally_initialized global i32 0, align 4

; CHECK-NOT: __ptxcc_device_num
; CHECK-LABEL: define internal void @__ptxemu.k(ptr %out)
; CHECK-NEXT: %[[D:.*]] = call i32 @__ptxemu_sreg(i32 14), !range [[R:![0-9]+]]
; CHECK-NEXT: store i32 %[[D]], ptr %out
; CHECK: [[R]] = !{i32 0, i32 65536}
define void @k(ptr %out) {
  %d = load i32, ptr addrspace(1) @__ptxcc_device_num, align 4
  store i32 %d, ptr %out
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}
