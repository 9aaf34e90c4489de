; Each kernel K gets `void @__ptxemu_entry.K(ptr %args)` (ptxrt_kernel_desc::emu_entry):
; parameter i is loaded from *(T *)args[i] with T's alignment and passed to the renamed kernel.
; RUN: ptxcc-opt --passes=simt-lowering %s | FileCheck %s
target triple = "nvptx64-nvidia-cuda"

define void @__omp_offloading_fe00_2_g_l9(ptr %a, i64 %n, i32 %small, double %d, ptr addrspace(1) %g, i64) {
  ret void
}

; CHECK-LABEL: define hidden void @__ptxemu_entry.__omp_offloading_fe00_2_g_l9(ptr noundef %args) {
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %a.slot = getelementptr inbounds ptr, ptr %args, i64 0
; CHECK-NEXT:    %a.addr = load ptr, ptr %a.slot, align 8
; CHECK-NEXT:    %a = load ptr, ptr %a.addr, align 8
; CHECK-NEXT:    %n.slot = getelementptr inbounds ptr, ptr %args, i64 1
; CHECK-NEXT:    %n.addr = load ptr, ptr %n.slot, align 8
; CHECK-NEXT:    %n = load i64, ptr %n.addr, align 8
; CHECK-NEXT:    %small.slot = getelementptr inbounds ptr, ptr %args, i64 2
; CHECK-NEXT:    %small.addr = load ptr, ptr %small.slot, align 8
; CHECK-NEXT:    %small = load i32, ptr %small.addr, align 4
; CHECK-NEXT:    %d.slot = getelementptr inbounds ptr, ptr %args, i64 3
; CHECK-NEXT:    %d.addr = load ptr, ptr %d.slot, align 8
; CHECK-NEXT:    %d = load double, ptr %d.addr, align 8
; CHECK-NEXT:    %g.slot = getelementptr inbounds ptr, ptr %args, i64 4
; CHECK-NEXT:    %g.addr = load ptr, ptr %g.slot, align 8
; CHECK-NEXT:    %g = load ptr, ptr %g.addr, align 8
; CHECK-NEXT:    %arg5.slot = getelementptr inbounds ptr, ptr %args, i64 5
; CHECK-NEXT:    %arg5.addr = load ptr, ptr %arg5.slot, align 8
; CHECK-NEXT:    %arg5 = load i64, ptr %arg5.addr, align 8
; CHECK-NEXT:    call void @__ptxemu.__omp_offloading_fe00_2_g_l9(ptr %a, i64 %n, i32 %small, double %d, ptr %g, i64 %arg5)
; CHECK-NEXT:    ret void
; CHECK-NEXT:  }

!nvvm.annotations = !{!0}
!0 = !{ptr @__omp_offloading_fe00_2_g_l9, !"kernel", i32 1}
