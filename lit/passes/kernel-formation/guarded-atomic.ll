; An atomic update in the teams code, which every thread of the block runs for the team's one
; thread, is made by thread 0 alone: the other threads update a word of shared memory instead
; (a select of the address, as for a store), and every thread continues with thread 0's result,
; passed through shared memory between two barriers, so that what the team computes from it stays
; the same in every thread. An update whose result is unused needs only the barrier after it.
; RUN: ptxcc-opt --passes=kernel-formation %s | FileCheck %s
target triple = "nvptx64-nvidia-cuda"

; CHECK-DAG: @__ptxcc.atomic_sink = internal addrspace(3) global [4 x i64] poison, align 16
; CHECK-DAG: @__ptxcc.atomic_result = internal addrspace(3) global [4 x i64] poison, align 16
define void @__omp_offloading_1_2_f_l1(ptr %n, ptr %out) {
  call void (ptr, i32, ptr, ...) @__kmpc_fork_teams(ptr null, i32 2, ptr @teams, ptr %n, ptr %out)
  ret void
}
; CHECK-LABEL: define internal void @teams(
; CHECK: %ptxcc.dst = select i1 %ptxcc.leader, ptr %n, ptr addrspacecast (ptr addrspace(3) @__ptxcc.atomic_sink to ptr)
; CHECK-NEXT: atomicrmw add ptr %ptxcc.dst, i32 1 monotonic
; CHECK-NEXT: call void @llvm.nvvm.barrier0()
; CHECK: %ptxcc.dst{{[0-9]+}} = select i1 %ptxcc.leader{{[0-9]+}}, ptr %n, ptr addrspacecast (ptr addrspace(3) @__ptxcc.atomic_sink to ptr)
; CHECK-NEXT: %slot = atomicrmw add ptr %ptxcc.dst{{[0-9]+}}, i32 1 monotonic
; CHECK-NEXT: %[[TO:ptxcc.dst[0-9]+]] = select i1 %ptxcc.leader{{[0-9]+}}, ptr addrspacecast (ptr addrspace(3) @__ptxcc.atomic_result to ptr), ptr %ptxcc.sink
; CHECK-NEXT: store i32 %slot, ptr %[[TO]]
; CHECK-NEXT: call void @llvm.nvvm.barrier0()
; CHECK-NEXT: %ptxcc.atomic = load i32, ptr addrspacecast (ptr addrspace(3) @__ptxcc.atomic_result to ptr)
; CHECK-NEXT: call void @llvm.nvvm.barrier0()
; CHECK-NEXT: %at = getelementptr i32, ptr %out, i32 %ptxcc.atomic
define internal void @teams(ptr %g, ptr %b, ptr %n, ptr %out) {
  atomicrmw add ptr %n, i32 1 monotonic
  %slot = atomicrmw add ptr %n, i32 1 monotonic
  %at = getelementptr i32, ptr %out, i32 %slot
  store i32 7, ptr %at
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr null, i32 1, ptr @par, ptr %out)
  ret void
}
; A worker whose lanes run its code keeps atomics out: it keeps one thread per worker.
define internal void @par(ptr %g, ptr %b, ptr %out) {
  ret void
}
declare void @__kmpc_fork_teams(ptr, i32, ptr, ...)
declare void @__kmpc_fork_call(ptr, i32, ptr, ...)
