; Orderings stronger than monotonic become membar fences around a monotonic access: LLVM 19's
; NVPTX back end cannot select them (loads, stores, fences) or drops them (read-modify-writes).
; RUN: ptxcc-opt --passes=atomic-orderings %s | FileCheck %s
; The result is something NVPTX selects, with the fences in place.
; RUN: ptxcc-opt --passes=atomic-orderings,nvptx-codegen %s | FileCheck %s --check-prefix=PTX
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define i32 @acquire_load(
; CHECK-NEXT: %v = load atomic i32, ptr addrspace(1) %p monotonic, align 4
; CHECK-NEXT: call void @llvm.nvvm.membar.gl()
; CHECK-NEXT: ret i32 %v
define i32 @acquire_load(ptr addrspace(1) %p) {
  %v = load atomic i32, ptr addrspace(1) %p acquire, align 4
  ret i32 %v
}

; CHECK-LABEL: define double @seq_cst_load(
; CHECK-NEXT: call void @llvm.nvvm.membar.gl()
; CHECK-NEXT: %v = load atomic double, ptr addrspace(1) %p monotonic, align 8
; CHECK-NEXT: call void @llvm.nvvm.membar.gl()
define double @seq_cst_load(ptr addrspace(1) %p) {
  %v = load atomic double, ptr addrspace(1) %p seq_cst, align 8
  ret double %v
}

; CHECK-LABEL: define void @stores(
; CHECK-NEXT: call void @llvm.nvvm.membar.gl()
; CHECK-NEXT: store atomic i32 %v, ptr addrspace(1) %p monotonic, align 4
; CHECK-NEXT: call void @llvm.nvvm.membar.gl()
; CHECK-NEXT: store atomic i32 %v, ptr addrspace(1) %p monotonic, align 4
; CHECK-NEXT: call void @llvm.nvvm.membar.gl()
; CHECK-NEXT: ret void
define void @stores(ptr addrspace(1) %p, i32 %v) {
  store atomic i32 %v, ptr addrspace(1) %p release, align 4
  store atomic i32 %v, ptr addrspace(1) %p seq_cst, align 4
  ret void
}

; CHECK-LABEL: define i32 @rmw(
; CHECK-NEXT: %a = atomicrmw add ptr addrspace(1) %p, i32 1 monotonic
; CHECK-NEXT: call void @llvm.nvvm.membar.gl()
; CHECK-NEXT: call void @llvm.nvvm.membar.gl()
; CHECK-NEXT: %b = atomicrmw add ptr addrspace(1) %p, i32 1 monotonic
; CHECK-NEXT: call void @llvm.nvvm.membar.gl()
; CHECK-NEXT: %c = atomicrmw max ptr addrspace(1) %p, i32 %a monotonic
; CHECK-NEXT: %d = atomicrmw xchg ptr addrspace(1) %p, i32 %b monotonic
define i32 @rmw(ptr addrspace(1) %p) {
  %a = atomicrmw add ptr addrspace(1) %p, i32 1 acquire
  %b = atomicrmw add ptr addrspace(1) %p, i32 1 seq_cst
  %c = atomicrmw max ptr addrspace(1) %p, i32 %a monotonic
  %d = atomicrmw xchg ptr addrspace(1) %p, i32 %b monotonic
  ret i32 %c
}

; CHECK-LABEL: define i1 @cas(
; CHECK-NEXT: call void @llvm.nvvm.membar.gl()
; CHECK-NEXT: %r = cmpxchg ptr addrspace(1) %p, i32 0, i32 1 monotonic monotonic
; CHECK-NEXT: call void @llvm.nvvm.membar.gl()
define i1 @cas(ptr addrspace(1) %p) {
  %r = cmpxchg ptr addrspace(1) %p, i32 0, i32 1 acq_rel acquire
  %ok = extractvalue { i32, i1 } %r, 1
  ret i1 %ok
}

; A block-scoped fence is a CTA fence; a single-thread fence orders nothing on the machine.
; CHECK-LABEL: define void @fences(
; CHECK-NEXT: call void @llvm.nvvm.membar.gl()
; CHECK-NEXT: call void @llvm.nvvm.membar.cta()
; CHECK-NEXT: ret void
define void @fences() {
  fence acquire
  fence syncscope("block") seq_cst
  fence syncscope("singlethread") seq_cst
  ret void
}

; PTX-LABEL: .func (.param .b32 func_retval0) acquire_load(
; PTX: ld.volatile.global.u32
; PTX-NEXT: membar.gl;
; PTX-LABEL: .func fences()
; PTX: membar.gl;
; PTX-NEXT: membar.cta;
