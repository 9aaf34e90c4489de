; Two parallel regions in one team are separated by a block barrier; an explicit
; __kmpc_barrier (the end of an 'omp for') becomes bar.sync too.
; RUN: ptxcc-opt --passes=kernel-formation %s | FileCheck %s
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define internal void @teams(
; CHECK: call void @p1(
; CHECK-NEXT: call void @llvm.nvvm.barrier0()
; CHECK: call void @p2(
; CHECK-NEXT: call void @llvm.nvvm.barrier0()
define void @__omp_offloading_1_2_two_l1(ptr %p) {
  call void (ptr, i32, ptr, ...) @__kmpc_fork_teams(ptr null, i32 1, ptr @teams, ptr %p)
  ret void
}
define internal void @teams(ptr %g, ptr %b, ptr %p) {
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr null, i32 1, ptr @p1, ptr %p)
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr null, i32 1, ptr @p2, ptr %p)
  ret void
}
; CHECK-LABEL: define internal void @p1(
; CHECK-NOT: __kmpc_barrier
; CHECK: call void @llvm.nvvm.barrier0()
; CHECK-NEXT: ret void
define internal void @p1(ptr %g, ptr %b, ptr %p) {
  store i32 1, ptr %p
  call void @__kmpc_barrier(ptr null, i32 0)
  ret void
}
define internal void @p2(ptr %g, ptr %b, ptr %p) {
  ret void
}
declare void @__kmpc_fork_teams(ptr, i32, ptr, ...)
declare void @__kmpc_fork_call(ptr, i32, ptr, ...)
declare void @__kmpc_barrier(ptr, i32)
