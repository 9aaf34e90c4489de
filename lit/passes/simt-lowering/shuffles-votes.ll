; Warp shuffles become __ptxemu_shfl_sync(mask, bits, lane/offset, c, mode) with mode 0..3 =
; idx/up/down/bfly; floats travel as their bits; the pre-Volta forms use the full mask; the
; predicate ("p") forms compute PTX's in-range bit from the lane id. Votes widen the predicate to
; i32 and compare the answer with 0, except ballot which returns the mask.
; RUN: ptxcc-opt --passes=simt-lowering %s | FileCheck %s
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define internal void @__ptxemu.k(ptr %out, i32 %v, float %f)
; CHECK-NEXT:    %i = call i32 @__ptxemu_shfl_sync(i32 -1, i32 %v, i32 0, i32 31, i32 0) [[CONV:#[0-9]+]]
; CHECK-NEXT:    %u = call i32 @__ptxemu_shfl_sync(i32 -1, i32 %i, i32 1, i32 0, i32 1) [[CONV]]
; CHECK-NEXT:    %d = call i32 @__ptxemu_shfl_sync(i32 65535, i32 %u, i32 2, i32 31, i32 2) [[CONV]]
; CHECK-NEXT:    %shfl.bits = bitcast float %f to i32
; CHECK-NEXT:    %shfl = call i32 @__ptxemu_shfl_sync(i32 -1, i32 %shfl.bits, i32 16, i32 31, i32 3) [[CONV]]
; CHECK-NEXT:    %b = bitcast i32 %shfl to float
; CHECK-NEXT:    %old = call i32 @__ptxemu_shfl_sync(i32 -1, i32 %d, i32 1, i32 31, i32 2) [[CONV]]
; The constant clamp operand folds: segmask 0, maxLane 31; down: in range iff lane + 4 <= 31.
; CHECK-NEXT:    [[PV:%shfl[0-9]*]] = call i32 @__ptxemu_shfl_sync(i32 -1, i32 %old, i32 4, i32 31, i32 2) [[CONV]]
; CHECK-NEXT:    %laneid = call i32 @__ptxemu_sreg(i32 12)
; CHECK-NEXT:    %shfl.minlane = and i32 %laneid, 0
; CHECK-NEXT:    %shfl.maxlane = or i32 %shfl.minlane, 31
; CHECK-NEXT:    %shfl.src = add i32 %laneid, 4
; CHECK-NEXT:    %shfl.inrange = icmp ule i32 %shfl.src, %shfl.maxlane
; CHECK-NEXT:    [[AGG:%[0-9]+]] = insertvalue { i32, i1 } poison, i32 [[PV]], 0
; CHECK-NEXT:    %p = insertvalue { i32, i1 } [[AGG]], i1 %shfl.inrange, 1
; CHECK:         %vote.pred = zext i1 %c to i32
; CHECK-NEXT:    %vote = call i32 @__ptxemu_vote_sync(i32 -1, i32 %vote.pred, i32 0) [[CONV]]
; CHECK-NEXT:    %all = icmp ne i32 %vote, 0
; CHECK:         call i32 @__ptxemu_vote_sync(i32 -1, i32 %{{.*}}, i32 1) [[CONV]]
; CHECK:         call i32 @__ptxemu_vote_sync(i32 3, i32 %{{.*}}, i32 2) [[CONV]]
; CHECK:         %bal = call i32 @__ptxemu_vote_sync(i32 -1, i32 %{{.*}}, i32 3) [[CONV]]
; CHECK-NEXT:    store i32 %bal, ptr %out, align 4
define void @k(ptr %out, i32 %v, float %f) {
  %i = call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 -1, i32 %v, i32 0, i32 31)
  %u = call i32 @llvm.nvvm.shfl.sync.up.i32(i32 -1, i32 %i, i32 1, i32 0)
  %d = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 65535, i32 %u, i32 2, i32 31)
  %b = call float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1, float %f, i32 16, i32 31)
  %old = call i32 @llvm.nvvm.shfl.down.i32(i32 %d, i32 1, i32 31)
  %p = call { i32, i1 } @llvm.nvvm.shfl.sync.down.i32p(i32 -1, i32 %old, i32 4, i32 31)
  %pv = extractvalue { i32, i1 } %p, 0
  %c = extractvalue { i32, i1 } %p, 1
  %all = call i1 @llvm.nvvm.vote.all.sync(i32 -1, i1 %c)
  %any = call i1 @llvm.nvvm.vote.any(i1 %all)
  %uni = call i1 @llvm.nvvm.vote.uni.sync(i32 3, i1 %any)
  %bal = call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 %uni)
  store i32 %bal, ptr %out, align 4
  ret void
}

; CHECK: declare i32 @__ptxemu_shfl_sync(i32, i32, i32, i32, i32) [[SYNC:#[0-9]+]]
; CHECK: declare i32 @__ptxemu_vote_sync(i32, i32, i32) [[SYNC]]
; CHECK-NOT: llvm.nvvm
; CHECK-DAG: attributes [[CONV]] = { convergent }
; CHECK-DAG: attributes [[SYNC]] = { convergent nounwind }

declare i32 @llvm.nvvm.shfl.sync.idx.i32(i32, i32, i32, i32)
declare i32 @llvm.nvvm.shfl.sync.up.i32(i32, i32, i32, i32)
declare i32 @llvm.nvvm.shfl.sync.down.i32(i32, i32, i32, i32)
declare float @llvm.nvvm.shfl.sync.bfly.f32(i32, float, i32, i32)
declare i32 @llvm.nvvm.shfl.down.i32(i32, i32, i32)
declare { i32, i1 } @llvm.nvvm.shfl.sync.down.i32p(i32, i32, i32, i32)
declare i1 @llvm.nvvm.vote.all.sync(i32, i1)
declare i1 @llvm.nvvm.vote.any(i1)
declare i1 @llvm.nvvm.vote.uni.sync(i32, i1)
declare i32 @llvm.nvvm.vote.ballot.sync(i32, i1)

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}
