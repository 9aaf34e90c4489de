; master, masked and single: the runtime call that says whether this thread runs the region becomes
; a comparison of the thread's number in its space with 0 (master, single) or the filter (masked);
; the end calls go; flush is membar.sys. In team code ("team": thread 0 of 1) every thread runs
; master and single regions (their stores are thread 0's).
; RUN: ptxcc-opt --passes=device-builtins %s | FileCheck %s
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define i32 @block(
; CHECK: %[[T:[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
; CHECK: %ptxcc.chosen = icmp eq i32 %[[T]], 0
; CHECK-NEXT: %[[M:[0-9]+]] = zext i1 %ptxcc.chosen to i32
; CHECK: %[[T2:[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
; CHECK: %ptxcc.chosen1 = icmp eq i32 %[[T2]], %f
; CHECK: %[[T3:[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
; CHECK: %ptxcc.chosen2 = icmp eq i32 %[[T3]], 0
; CHECK: call void @llvm.nvvm.membar.sys()
; CHECK-NOT: __kmpc
define i32 @block(i32 %f) {
  %m = call i32 @__kmpc_master(ptr null, i32 0)
  call void @__kmpc_end_master(ptr null, i32 0)
  %k = call i32 @__kmpc_masked(ptr null, i32 0, i32 %f)
  call void @__kmpc_end_masked(ptr null, i32 0)
  %s = call i32 @__kmpc_single(ptr null, i32 0)
  call void @__kmpc_end_single(ptr null, i32 0)
  call void @__kmpc_flush(ptr null)
  %a = add i32 %m, %k
  %b = add i32 %a, %s
  ret i32 %b
}

; CHECK-LABEL: define i32 @team(
; CHECK-NEXT: ret i32 1
define i32 @team() "ptxcc-threads"="team" {
  %s = call i32 @__kmpc_single(ptr null, i32 0)
  call void @__kmpc_end_single(ptr null, i32 0)
  ret i32 %s
}

; In a worker's vector lanes the lane number decides.
; CHECK-LABEL: define i32 @lanes(
; CHECK: %ptxcc.lane = and i32 %{{[0-9]+}}, 31
; CHECK: icmp eq i32 %ptxcc.lane, 0
define i32 @lanes() "ptxcc-threads"="lanes:8" {
  %m = call i32 @__kmpc_master(ptr null, i32 0)
  call void @__kmpc_end_master(ptr null, i32 0)
  ret i32 %m
}
declare i32 @__kmpc_master(ptr, i32)
declare void @__kmpc_end_master(ptr, i32)
declare i32 @__kmpc_masked(ptr, i32, i32)
declare void @__kmpc_end_masked(ptr, i32)
declare i32 @__kmpc_single(ptr, i32)
declare void @__kmpc_end_single(ptr, i32)
declare void @__kmpc_flush(ptr)
