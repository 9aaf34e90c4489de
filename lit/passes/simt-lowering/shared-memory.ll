; addrspace(3) globals become offsets from __ptxemu_shared_base(), computed at the top of each
; function that uses them (also helpers reached through calls). One layout serves the module:
; first fit in module order, honouring alignment, where variables of different kernels may
; share bytes. Constant expressions over them become instructions.
; RUN: ptxcc-opt --passes=simt-lowering %s | FileCheck %s
target triple = "nvptx64-nvidia-cuda"

; k1 reaches @flag, @vals (through @fill) and @common; k2 reaches @big and @common.
; Layout: @flag 0..1, @vals 8..40 (align 8), @big 0..64 (k2 only, overlaps k1's), @common 64.
@flag = internal addrspace(3) global i8 undef, align 1
@vals = internal addrspace(3) global [4 x double] undef, align 8
@big = internal addrspace(3) global [16 x i32] undef, align 16
@common = internal addrspace(3) global i32 undef, align 4

; CHECK-NOT: addrspace
; CHECK-NOT: @flag
; CHECK-LABEL: define internal void @__ptxemu.fill(i32 %i)
; CHECK-NEXT:    %ptxemu.shared = call ptr @__ptxemu_shared_base()
; CHECK-NEXT:    %vals = getelementptr inbounds i8, ptr %ptxemu.shared, i64 8
; CHECK-NEXT:    %p = getelementptr [4 x double], ptr %vals, i32 0, i32 %i
; CHECK-NEXT:    store double 1.000000e+00, ptr %p, align 8
define internal void @fill(i32 %i) {
  %p = getelementptr [4 x double], ptr addrspace(3) @vals, i32 0, i32 %i
  store double 1.0, ptr addrspace(3) %p, align 8
  ret void
}

; CHECK-LABEL: define internal void @__ptxemu.k1(ptr %out)
; CHECK-NEXT:    %ptxemu.shared = call ptr @__ptxemu_shared_base()
; CHECK-NEXT:    %flag = getelementptr inbounds i8, ptr %ptxemu.shared, i64 0
; CHECK-NEXT:    %vals = getelementptr inbounds i8, ptr %ptxemu.shared, i64 8
; CHECK-NEXT:    %common = getelementptr inbounds i8, ptr %ptxemu.shared, i64 64
; CHECK-NEXT:    store i8 1, ptr %flag, align 1
; CHECK-NEXT:    call void @__ptxemu.fill(i32 2)
; CHECK-NEXT:    %1 = getelementptr inbounds [4 x double], ptr %vals, i32 0, i32 3
; CHECK-NEXT:    %v = load double, ptr %1, align 8
; CHECK-NEXT:    store i32 7, ptr %common, align 4
define void @k1(ptr %out) {
  store i8 1, ptr addrspace(3) @flag, align 1
  call void @fill(i32 2)
  %v = load double, ptr addrspacecast (ptr addrspace(3) getelementptr inbounds ([4 x double], ptr addrspace(3) @vals, i32 0, i32 3) to ptr), align 8
  store i32 7, ptr addrspacecast (ptr addrspace(3) @common to ptr), align 4
  store double %v, ptr %out, align 8
  ret void
}

; CHECK-LABEL: define internal void @__ptxemu.k2(ptr %out)
; CHECK-NEXT:    %ptxemu.shared = call ptr @__ptxemu_shared_base()
; CHECK-NEXT:    %big = getelementptr inbounds i8, ptr %ptxemu.shared, i64 0
; CHECK-NEXT:    %common = getelementptr inbounds i8, ptr %ptxemu.shared, i64 64
; CHECK-NEXT:    store <4 x i32> zeroinitializer, ptr %big, align 16
; CHECK-NEXT:    %c = load i32, ptr %common, align 4
define void @k2(ptr %out) {
  store <4 x i32> zeroinitializer, ptr addrspace(3) @big, align 16
  %c = load i32, ptr addrspace(3) @common, align 4
  store i32 %c, ptr %out, align 4
  ret void
}

; CHECK: declare noundef nonnull align 16 ptr @__ptxemu_shared_base() [[PURE:#[0-9]+]]
; CHECK: attributes [[PURE]] = { nosync nounwind speculatable willreturn memory(none) }

!nvvm.annotations = !{!0, !1}
!0 = !{ptr @k1, !"kernel", i32 1}
!1 = !{ptr @k2, !"kernel", i32 1}
