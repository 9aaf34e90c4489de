; A store of the teams code (here y[i] = s after an inner parallel loop) is made by thread 0
; only, through a select on the address, and followed by a barrier; the parallel region before
; it ends with a barrier too, since the teams code reads memory afterwards.
; RUN: ptxcc-opt --passes=kernel-formation %s | FileCheck %s
target triple = "nvptx64-nvidia-cuda"

define void @__omp_offloading_1_2_f_l1(ptr %y) {
  call void (ptr, i32, ptr, ...) @__kmpc_fork_teams(ptr null, i32 1, ptr @teams, ptr %y)
  ret void
}
; CHECK-LABEL: define internal void @teams(
; CHECK: %ptxcc.sink = alloca double
; CHECK: call void @par(
; CHECK-NEXT: call void @llvm.nvvm.barrier0()
; CHECK: %[[S:.*]] = load double, ptr %y
; CHECK: %[[TID:[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
; CHECK: %ptxcc.t0 = icmp eq i32 %[[TID]], 0
; CHECK: %ptxcc.dst = select i1 %ptxcc.t0, ptr %y1, ptr %ptxcc.sink
; CHECK: store double %[[S]], ptr %ptxcc.dst
; CHECK-NEXT: call void @llvm.nvvm.barrier0()
define internal void @teams(ptr %g, ptr %b, ptr %y) {
  %s = alloca double
  store double 0.0, ptr %s
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr null, i32 1, ptr @par, ptr %s)
  %v = load double, ptr %y
  %y1 = getelementptr double, ptr %y, i64 1
  store double %v, ptr %y1
  ret void
}
define internal void @par(ptr %g, ptr %b, ptr %s) {
  store double 1.0, ptr %s
  ret void
}
declare void @__kmpc_fork_teams(ptr, i32, ptr, ...)
declare void @__kmpc_fork_call(ptr, i32, ptr, ...)
