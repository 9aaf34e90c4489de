; A call between 'teams' and 'parallel' to a sequential function compiled for the device that
; writes memory is made by thread 0 alone: a branch around it that rejoins before a barrier;
; its result and the local it fills reach the other threads through shared-memory slots, read
; between two barriers. A function with a barrier inside stays an error.
; RUN: ptxcc-opt --passes=kernel-formation %s | FileCheck %s
; RUN: sed 's/^;BARRIER //' %s | not ptxcc-opt --passes=kernel-formation - 2>&1 | FileCheck %s --check-prefix=BAD
target triple = "nvptx64-nvidia-cuda"

; CHECK: @__ptxcc.call.claim = internal addrspace(3) global i32 poison
; CHECK: @[[OUT:__ptxcc.call.claim.[^ ]*]] = internal addrspace(3) global [2 x double] poison
define void @__omp_offloading_1_2_f_l4(ptr %p) {
  call void (ptr, i32, ptr, ...) @__kmpc_fork_teams(ptr null, i32 1, ptr @teams, ptr %p)
  ret void
}
; CHECK-LABEL: define internal void @teams(
; CHECK: %ptxcc.leader = icmp eq i32 %{{.*}}, 0
; CHECK-NEXT: br i1 %ptxcc.leader, label %ptxcc.call, label %[[REST:.*]]
; CHECK: ptxcc.call:
; CHECK-NEXT: %[[R:[0-9a-z]+]] = call i32 @claim(ptr %p, ptr %[[L:[0-9a-z]+]])
; CHECK-NEXT: store i32 %[[R]], ptr addrspace(3) @__ptxcc.call.claim,
; CHECK-NEXT: call void @llvm.memcpy{{.*}}(ptr addrspace(3) align 8 @[[OUT]], ptr align 8 %[[L]]
; CHECK-NEXT: br label %[[REST]]
; CHECK: [[REST]]:
; CHECK-NEXT: call void @llvm.nvvm.barrier0()
; CHECK-NEXT: %ptxcc.result = load i32, ptr addrspace(3) @__ptxcc.call.claim
; CHECK-NEXT: call void @llvm.memcpy{{.*}}(ptr align 8 %[[L]], ptr addrspace(3) align 8 @[[OUT]]
; CHECK-NEXT: call void @llvm.nvvm.barrier0()
; CHECK-NEXT: call void @par({{.*}}, i32 %ptxcc.result)
define internal void @teams(ptr %g, ptr %b, ptr %p) {
  %out = alloca [2 x double]
  %r = call i32 @claim(ptr %p, ptr %out)
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr null, i32 2, ptr @par, ptr %p, i32 %r)
  ret void
}
define internal void @par(ptr %g, ptr %b, ptr %p, i32 %r) {
  ret void
}
; BAD: error: ptxcc does not support a call to 'claim' between 'target teams' and its parallel loop
define internal i32 @claim(ptr %c, ptr %out) {
  %v = load i32, ptr %c
  %w = add i32 %v, 1
  store i32 %w, ptr %c
  store double 1.0, ptr %out
;BARRIER call void @llvm.nvvm.barrier0()
  ret i32 %v
}
declare void @llvm.nvvm.barrier0()
declare void @__kmpc_fork_teams(ptr, i32, ptr, ...)
declare void @__kmpc_fork_call(ptr, i32, ptr, ...)
