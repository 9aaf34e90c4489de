; A printf in the teams code, which every thread of the block runs for the team's one thread,
; prints once: the other threads get an empty format (a select, not a branch, like a guarded
; store's address).
; RUN: ptxcc-opt --passes=kernel-formation %s | FileCheck %s
target triple = "nvptx64-nvidia-cuda"
@.str = private constant [9 x i8] c"team %d\0A\00"

; CHECK: @__ptxcc.empty_string = private constant [1 x i8] zeroinitializer
define void @__omp_offloading_1_2_f_l1(ptr %y) {
  call void (ptr, i32, ptr, ...) @__kmpc_fork_teams(ptr null, i32 1, ptr @teams, ptr %y)
  ret void
}
; CHECK-LABEL: define internal void @teams(
; CHECK: %[[T:[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
; CHECK-NEXT: %ptxcc.leader = icmp eq i32 %[[T]], 0
; CHECK-NEXT: %ptxcc.format = select i1 %ptxcc.leader, ptr @.str, ptr @__ptxcc.empty_string
; CHECK-NEXT: call i32 (ptr, ...) @printf(ptr %ptxcc.format, i32 7)
; CHECK: call void @par(
define internal void @teams(ptr %g, ptr %b, ptr %y) {
  call i32 (ptr, ...) @printf(ptr @.str, i32 7)
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr null, i32 1, ptr @par, ptr %y)
  ret void
}
; In the parallel region every thread prints.
; CHECK-LABEL: define internal void @par(
; CHECK-NEXT: call i32 (ptr, ...) @printf(ptr @.str, i32 1)
define internal void @par(ptr %g, ptr %b, ptr %y) {
  call i32 (ptr, ...) @printf(ptr @.str, i32 1)
  ret void
}
declare i32 @printf(ptr, ...)
declare void @__kmpc_fork_teams(ptr, i32, ptr, ...)
declare void @__kmpc_fork_call(ptr, i32, ptr, ...)
