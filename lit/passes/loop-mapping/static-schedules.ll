; Each static schedule becomes index arithmetic on the right level of the grid:
; 'for' schedules split over the block's threads, 'distribute' schedules over the grid's blocks;
; unchunked ones hand out contiguous blocks, chunked ones deal chunks round-robin.
; RUN: ptxcc-opt --passes=loop-mapping %s | FileCheck %s
target triple = "nvptx64-nvidia-cuda"

; schedule(static): a contiguous block of ceil(trip/ntid) iterations per thread.
; CHECK-LABEL: define void @for_static(
; CHECK: %ptxcc.lb0 = load i32, ptr %lb
; CHECK: %ptxcc.ub0 = load i32, ptr %ub
; CHECK: call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
; CHECK: call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
; CHECK: %ptxcc.trip = add i32
; CHECK: udiv i32
; CHECK: %ptxcc.blk = add i32
; CHECK: %ptxcc.empty = icmp uge i32
; The stride is the part's length: a distribute loop's `iv += stride` ends just past it, without wrapping.
; CHECK: %ptxcc.len = add i32
; CHECK: store i32 %ptxcc.lb, ptr %lb
; CHECK: store i32 %ptxcc.ub, ptr %ub
; CHECK: store i32 %ptxcc.len, ptr %st
; CHECK: store i32 %ptxcc.last32, ptr %last
; CHECK-NOT: __kmpc
; CHECK: ret void
define void @for_static(ptr %lb, ptr %ub, ptr %st, ptr %last) {
  call void @__kmpc_for_static_init_4(ptr null, i32 0, i32 34, ptr %last, ptr %lb, ptr %ub, ptr %st, i32 1, i32 1)
  ret void
}

; schedule(static, 1): cyclic, stride = ntid * chunk.
; CHECK-LABEL: define void @for_cyclic(
; CHECK: call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
; CHECK: call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
; CHECK: %ptxcc.lb = add i32 %ptxcc.lb0,
; CHECK: %ptxcc.stride = mul i32 %{{[0-9]+}}, 1
; CHECK: store i32 %ptxcc.stride, ptr %st
; CHECK-NOT: __kmpc
; CHECK: ret void
define void @for_cyclic(ptr %lb, ptr %ub, ptr %st, ptr %last) {
  call void @__kmpc_for_static_init_4(ptr null, i32 0, i32 33, ptr %last, ptr %lb, ptr %ub, ptr %st, i32 1, i32 1)
  ret void
}

; dist_schedule(static): one contiguous block per team (block of the grid).
; CHECK-LABEL: define void @distribute_block(
; CHECK: call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
; CHECK: call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
; CHECK-NOT: sreg.tid
; CHECK: ret void
define void @distribute_block(ptr %lb, ptr %ub, ptr %st, ptr %last) {
  call void @__kmpc_for_static_init_4(ptr null, i32 0, i32 92, ptr %last, ptr %lb, ptr %ub, ptr %st, i32 1, i32 1)
  ret void
}

; dist_schedule(static, c) with a run-time chunk: chunks dealt over the grid; a chunk below 1
; counts as 1.
; CHECK-LABEL: define void @distribute_chunked(
; CHECK: call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
; CHECK: call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
; CHECK: %[[OK:[0-9]+]] = icmp sgt i32 %c, 0
; CHECK: %ptxcc.c = select i1 %[[OK]], i32 %c, i32 1
; CHECK: %ptxcc.stride = mul i32 %{{[0-9]+}}, %ptxcc.c
; CHECK: ret void
define void @distribute_chunked(ptr %lb, ptr %ub, ptr %st, ptr %last, i32 %c) {
  call void @__kmpc_for_static_init_4(ptr null, i32 0, i32 91, ptr %last, ptr %lb, ptr %ub, ptr %st, i32 1, i32 %c)
  ret void
}

; 64-bit unsigned iteration spaces (collapse, long loops) keep 64-bit arithmetic.
; CHECK-LABEL: define void @for_static_8u(
; CHECK: %ptxcc.lb0 = load i64, ptr %lb
; CHECK: zext i32 {{.*}} to i64
; CHECK: udiv i64
; CHECK: store i64 %ptxcc.lb, ptr %lb
; CHECK: ret void
define void @for_static_8u(ptr %lb, ptr %ub, ptr %st, ptr %last) {
  call void @__kmpc_for_static_init_8u(ptr null, i32 0, i32 34, ptr %last, ptr %lb, ptr %ub, ptr %st, i64 1, i64 1)
  ret void
}

; Schedule modifiers (monotonic = 1<<29) do not change the mapping.
; CHECK-LABEL: define void @modifier(
; CHECK: sreg.tid.x
; CHECK: ret void
define void @modifier(ptr %lb, ptr %ub, ptr %st, ptr %last) {
  call void @__kmpc_for_static_init_4(ptr null, i32 0, i32 536870946, ptr %last, ptr %lb, ptr %ub, ptr %st, i32 1, i32 1)
  ret void
}

; distribute + for in one call: blocks first, then the block's threads; the team's upper bound
; goes to pupperD.
; CHECK-LABEL: define void @dist_for(
; CHECK: sreg.ctaid.x
; CHECK: sreg.nctaid.x
; CHECK: store i32 %ptxcc.ub{{[0-9]*}}, ptr %ud
; CHECK: sreg.tid.x
; CHECK: sreg.ntid.x
; CHECK: %ptxcc.last = and i1
; CHECK: ret void
define void @dist_for(ptr %lb, ptr %ub, ptr %ud, ptr %st, ptr %last) {
  call void @__kmpc_dist_for_static_init_4(ptr null, i32 0, i32 34, ptr %last, ptr %lb, ptr %ub, ptr %ud, ptr %st, i32 1, i32 1)
  ret void
}

declare void @__kmpc_for_static_init_4(ptr, i32, i32, ptr, ptr, ptr, ptr, i32, i32)
declare void @__kmpc_for_static_init_8u(ptr, i32, i32, ptr, ptr, ptr, ptr, i64, i64)
declare void @__kmpc_dist_for_static_init_4(ptr, i32, i32, ptr, ptr, ptr, ptr, ptr, i32, i32)
