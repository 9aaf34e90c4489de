; critical: __kmpc_critical and __kmpc_end_critical take and give back a spin lock, one word of the
; lock variable clang made for the construct's name: a compare-exchange loop then membar.gl, and
; membar.gl then an exchange with 0 (NVPTX in LLVM 19 selects no fence).
; RUN: ptxcc-opt --passes=device-builtins %s | FileCheck %s
target triple = "nvptx64-nvidia-cuda"
@.gomp_critical_user_maxloc.var = internal global [8 x i32] zeroinitializer

; CHECK-LABEL: define void @body(ptr %x)
; CHECK-NEXT: call void @__ptxcc_critical_enter(ptr @.gomp_critical_user_maxloc.var)
; CHECK-NEXT: store i32 1, ptr %x
; CHECK-NEXT: call void @__ptxcc_critical_exit(ptr @.gomp_critical_user_maxloc.var)
; CHECK-NEXT: call void @__ptxcc_critical_enter(ptr @.gomp_critical_user_maxloc.var)
; CHECK-NEXT: call void @__ptxcc_critical_exit(ptr @.gomp_critical_user_maxloc.var)
; CHECK-NEXT: ret void
define void @body(ptr %x) {
  call void @__kmpc_critical(ptr null, i32 0, ptr @.gomp_critical_user_maxloc.var)
  store i32 1, ptr %x
  call void @__kmpc_end_critical(ptr null, i32 0, ptr @.gomp_critical_user_maxloc.var)
  call void @__kmpc_critical_with_hint(ptr null, i32 0, ptr @.gomp_critical_user_maxloc.var, i32 0)
  call void @__kmpc_end_critical(ptr null, i32 0, ptr @.gomp_critical_user_maxloc.var)
  ret void
}

; CHECK-LABEL: define internal void @__ptxcc_critical_enter(ptr %0)
; CHECK: spin:
; CHECK-NEXT: %[[R:[0-9]+]] = cmpxchg ptr %0, i32 0, i32 1 monotonic monotonic
; CHECK-NEXT: %ok = extractvalue { i32, i1 } %[[R]], 1
; CHECK-NEXT: br i1 %ok, label %taken, label %spin
; CHECK: taken:
; CHECK-NEXT: call void @llvm.nvvm.membar.gl()
; CHECK-LABEL: define internal void @__ptxcc_critical_exit(ptr %0)
; CHECK-NEXT: entry:
; CHECK-NEXT: call void @llvm.nvvm.membar.gl()
; CHECK-NEXT: atomicrmw xchg ptr %0, i32 0 monotonic
; CHECK-NOT: @__kmpc
declare void @__kmpc_critical(ptr, i32, ptr)
declare void @__kmpc_critical_with_hint(ptr, i32, ptr, i32)
declare void @__kmpc_end_critical(ptr, i32, ptr)
