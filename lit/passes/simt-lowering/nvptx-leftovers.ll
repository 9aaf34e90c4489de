; Nothing NVPTX-specific reaches the host object: the ptx_kernel/ptx_device calling conventions
; become C, NVPTX target-cpu/target-features and nvvm.* attributes go (x86 ones stay),
; !nvvm.annotations, !nvvmir.version, clang's !omp_offload.info and device-only module flags
; ("openmp-device" would make OpenMPOpt treat the host module as device code) are removed, and
; copies of offload-entry tables are dropped. Triple and data layout are the host's.
; RUN: ptxcc-opt --passes=simt-lowering %s | FileCheck %s --implicit-check-not=sm_90 \
; RUN:   --implicit-check-not=nvvm --implicit-check-not=ptx_kernel --implicit-check-not=ptx_device \
; RUN:   --implicit-check-not=openmp-device --implicit-check-not=omp_offload --implicit-check-not=omp_offloading_entries
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK: target datalayout = "e-m:e-
; CHECK: target triple = "x86_64-
%struct.__tgt_offload_entry = type { ptr, ptr, i64, i32, i32 }
@.omp_offloading.entry_name = internal unnamed_addr constant [2 x i8] c"k\00"
@.omp_offloading.entry.k = weak constant %struct.__tgt_offload_entry { ptr @k, ptr @.omp_offloading.entry_name, i64 0, i32 0, i32 0 }, section "omp_offloading_entries", align 1
@llvm.compiler.used = appending global [1 x ptr] [ptr @.omp_offloading.entry.k], section "llvm.metadata"

; CHECK-LABEL: define internal void @__ptxemu.dev() #0
define internal ptx_device void @dev() #0 {
  ret void
}

; CHECK-LABEL: define internal void @__ptxemu.k(ptr %p) #1
; CHECK-NEXT:    call void @__ptxemu.dev()
define ptx_kernel void @k(ptr %p) #1 {
  call ptx_device void @dev()
  ret void
}

; CHECK-LABEL: define hidden void @__ptxemu_entry.k(
; CHECK: attributes #0 = { "target-cpu"="x86-64" "target-features"="+cx8,+sse2" }
; CHECK: attributes #1 = { convergent "frame-pointer"="all" }
; CHECK: !llvm.module.flags = !{[[WCHAR:![0-9]+]]}
; CHECK: [[WCHAR]] = !{i32 1, !"wchar_size", i32 4}
attributes #0 = { "target-cpu"="x86-64" "target-features"="+cx8,+sse2" }
attributes #1 = { convergent "frame-pointer"="all" "nvvm.maxntid"="128" "target-cpu"="sm_90" "target-features"="+ptx80,+sm_90" }

!nvvm.annotations = !{!0, !1}
!0 = !{ptr @k, !"kernel", i32 1}
!1 = !{ptr @k, !"maxntidx", i32 128}
!nvvmir.version = !{!2}
!2 = !{i32 2, i32 0}
!llvm.module.flags = !{!3, !4, !5}
!3 = !{i32 1, !"wchar_size", i32 4}
!4 = !{i32 7, !"openmp-device", i32 51}
!5 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!omp_offload.info = !{!6}
!6 = !{i32 0, i32 1, i32 2, !"k", i32 3, i32 0, i32 0}
