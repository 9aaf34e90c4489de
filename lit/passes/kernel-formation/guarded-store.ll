; The teams code's local that its parallel region shares (%s, passed to the fork by address) moves
; to block shared memory: one copy per team. Stores of the teams code - to that local and to
; memory (y[1] = y[0]) - are made by thread 0 only, through a select on the address, each followed
; by a barrier; the parallel region ends with a barrier since the teams code reads memory after it.
; RUN: ptxcc-opt --passes=kernel-formation %s | FileCheck %s
target triple = "nvptx64-nvidia-cuda"

; CHECK: @__ptxcc.team.s = internal addrspace(3) global double poison, align 8
define void @__omp_offloading_1_2_f_l1(ptr %y) {
  call void (ptr, i32, ptr, ...) @__kmpc_fork_teams(ptr null, i32 1, ptr @teams, ptr %y)
  ret void
}
; CHECK-LABEL: define internal void @teams(
; CHECK: %[[T:[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
; CHECK-NEXT: %ptxcc.leader = icmp eq i32 %[[T]], 0
; CHECK-NEXT: %ptxcc.dst = select i1 %ptxcc.leader, ptr addrspacecast (ptr addrspace(3) @__ptxcc.team.s to ptr), ptr %ptxcc.sink
; CHECK-NEXT: store double 0.000000e+00, ptr %ptxcc.dst
; CHECK-NEXT: call void @llvm.nvvm.barrier0()
; CHECK-NEXT: call void @par(ptr %ptxcc.gtid, ptr %ptxcc.gtid, ptr addrspacecast (ptr addrspace(3) @__ptxcc.team.s to ptr))
; CHECK-NEXT: call void @llvm.nvvm.barrier0()
; CHECK: %[[V:.*]] = load double, ptr %y
; CHECK: select i1 %{{.*}}, ptr %y1, ptr %ptxcc.sink
; CHECK-NEXT: store double %[[V]], ptr %ptxcc.dst
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
