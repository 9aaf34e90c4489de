; A parallel region nested in the parallel region of a target region (OpenACC's vector loop in a
; worker loop) runs on the lanes of its worker's warp: the outer region's functions get the
; "warps" thread space, the nested region's "lanes:N" (N from num_threads, at most 32). The
; worker's code runs in all lanes: its local that the nested region writes (%tmp) moves to shared
; memory, one copy per warp; its store to memory is made by lane 0, followed by a warp barrier;
; a local the nested region only reads (%k) stays per lane. The nested region ends with a warp
; barrier, and an `omp barrier` inside it synchronises the warp, not the block.
; RUN: ptxcc-opt --passes=kernel-formation %s | FileCheck %s
target triple = "nvptx64-nvidia-cuda"
%struct.ident_t = type { i32, i32, i32, i32, ptr }
@.str = private constant [16 x i8] c";n.c;f;9;1;;\00\00\00\00"
@loc = private constant %struct.ident_t { i32 0, i32 2, i32 0, i32 20, ptr @.str }

; CHECK: @__ptxcc.worker.tmp = internal addrspace(3) global [32 x [4 x float]] poison, align 8
define void @__omp_offloading_1_2_f_l8(ptr %p) {
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr null, i32 1, ptr @worker, ptr %p)
  ret void
}

; CHECK-LABEL: define internal void @worker(
; CHECK-SAME: #[[WARPS:[0-9]+]]
; CHECK: %[[TID:[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
; CHECK-NEXT: %ptxcc.worker = lshr i32 %[[TID]], 5
; CHECK-NEXT: %[[SLOT:[0-9]+]] = getelementptr inbounds [32 x [4 x float]], ptr addrspace(3) @__ptxcc.worker.tmp, i32 0, i32 %ptxcc.worker
; CHECK-NEXT: %__ptxcc.worker.tmp = addrspacecast ptr addrspace(3) %[[SLOT]] to ptr
; CHECK-NEXT: %k = alloca i32
; CHECK: call void @lanes(ptr %ptxcc.gtid, ptr %ptxcc.gtid, ptr %__ptxcc.worker.tmp, ptr %k)
; CHECK-NEXT: call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
; CHECK: %[[MASK:ptxcc.warp.mask[0-9]*]] = trunc i64 %{{.*}} to i32
; CHECK-NEXT: call void @llvm.nvvm.bar.warp.sync(i32 %[[MASK]])
; CHECK: %[[L:[0-9]+]] = and i32 %{{.*}}, 31
; CHECK-NEXT: %ptxcc.leader = icmp eq i32 %[[L]], 0
; CHECK-NEXT: %ptxcc.dst = select i1 %ptxcc.leader, ptr %p, ptr %ptxcc.sink
; CHECK-NEXT: store float %v, ptr %ptxcc.dst
; CHECK: call void @llvm.nvvm.bar.warp.sync(
; CHECK-NEXT: ret void
define internal void @worker(ptr %g, ptr %b, ptr %p) {
  %tmp = alloca [4 x float]
  %k = alloca i32
  store i32 3, ptr %k
  call void @__kmpc_push_num_threads(ptr @loc, i32 0, i32 16)
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr @loc, i32 2, ptr @lanes, ptr %tmp, ptr %k)
  %v = load float, ptr %tmp
  store float %v, ptr %p
  ret void
}

; CHECK-LABEL: define internal void @lanes(
; CHECK-SAME: #[[LANES:[0-9]+]]
; CHECK-NOT: __kmpc_barrier
; CHECK: call void @llvm.nvvm.bar.warp.sync(
; CHECK-NOT: @llvm.nvvm.barrier0
; CHECK: ret void
define internal void @lanes(ptr %g, ptr %b, ptr %tmp, ptr %k) {
  %i = load i32, ptr %k
  %e = getelementptr float, ptr %tmp, i32 %i
  store float 1.0, ptr %e
  call void @__kmpc_barrier(ptr @loc, i32 0)
  ret void
}
declare void @__kmpc_fork_call(ptr, i32, ptr, ...)
declare void @__kmpc_push_num_threads(ptr, i32, i32)
declare void @__kmpc_barrier(ptr, i32)
; CHECK-DAG: attributes #[[WARPS]] = { "ptxcc-threads"="warps" }
; CHECK-DAG: attributes #[[LANES]] = { "ptxcc-threads"="lanes:16" }
