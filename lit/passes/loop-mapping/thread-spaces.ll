; A worksharing loop splits over its function's thread space (kernel formation's
; "ptxcc-threads" attribute): a worker's loop over the warps of the block (tid.x >> 5 of
; (ntid.x + 31) >> 5), a vector loop under it over the lanes of the warp (tid.x & 31 of
; min(V, threads of this warp)), where the lanes past V get the empty part [lb0 + 1, lb0];
; a nested region that runs on one thread takes every iteration (id 0 of 1).
; RUN: ptxcc-opt --passes=loop-mapping %s | FileCheck %s
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define void @workers(
; CHECK: %ptxcc.worker = lshr i32 %{{[0-9]+}}, 5
; CHECK: %[[R:[0-9]+]] = add i32 %{{[0-9]+}}, 31
; CHECK-NEXT: %ptxcc.workers = lshr i32 %[[R]], 5
; CHECK-NOT: ptxcc.idle
; CHECK: store i32 %ptxcc.lb, ptr %lb
; CHECK-NOT: __kmpc
; CHECK: ret void
define void @workers(ptr %lb, ptr %ub, ptr %st, ptr %last) "ptxcc-threads"="warps" {
  call void @__kmpc_for_static_init_4(ptr null, i32 0, i32 34, ptr %last, ptr %lb, ptr %ub, ptr %st, i32 1, i32 1)
  ret void
}

; CHECK-LABEL: define void @lanes(
; CHECK: %ptxcc.lane = and i32 %{{[0-9]+}}, 31
; CHECK: %ptxcc.warp.size = select i1 %{{[0-9]+}}, i32 %{{[0-9]+}}, i32 32
; CHECK: %ptxcc.lanes = select i1 %{{[0-9]+}}, i32 %ptxcc.warp.size, i32 8
; CHECK: %ptxcc.idle = icmp uge i32 %ptxcc.lane{{[0-9]*}}, %ptxcc.lanes{{[0-9]*}}
; CHECK: %[[NEXT:[0-9]+]] = add i32 %ptxcc.lb0, 1
; CHECK-NEXT: %[[LB:ptxcc.lb[0-9]*]] = select i1 %ptxcc.idle, i32 %[[NEXT]],
; CHECK-NEXT: %[[UB:ptxcc.ub[0-9]*]] = select i1 %ptxcc.idle, i32 %ptxcc.lb0,
; CHECK: store i32 %[[LB]], ptr %lb
; CHECK: store i32 %[[UB]], ptr %ub
; CHECK: ret void
define void @lanes(ptr %lb, ptr %ub, ptr %st, ptr %last) "ptxcc-threads"="lanes:8" {
  call void @__kmpc_for_static_init_4(ptr null, i32 0, i32 33, ptr %last, ptr %lb, ptr %ub, ptr %st, i32 1, i32 1)
  ret void
}

; CHECK-LABEL: define void @single(
; CHECK-NOT: sreg.tid
; CHECK: ret void
define void @single(ptr %lb, ptr %ub, ptr %st, ptr %last) "ptxcc-threads"="single" {
  call void @__kmpc_for_static_init_4(ptr null, i32 0, i32 34, ptr %last, ptr %lb, ptr %ub, ptr %st, i32 1, i32 1)
  ret void
}
declare void @__kmpc_for_static_init_4(ptr, i32, i32, ptr, ptr, ptr, ptr, i32, i32)
