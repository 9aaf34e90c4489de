; A 'for' schedule without the monotonic modifier (no schedule clause) is dealt cyclically: the
; thread starts at lb0 + tid.x and clang's unit increment of the loop's .omp.iv becomes ntid.x.
; The increment keeps its no-wrap flag: a thread whose last step could pass the type's maximum
; (ub0 > MAX - ntid.x) takes a contiguous part with a unit step instead, computed on a branch of
; its own that is marked unlikely (no division: the parts come from a shift), so that the common
; case does not compute it. A small flat loop gets an unroll count of 4 and mustprogress.
; With the modifier (an explicit schedule(static)) the thread gets one contiguous block.
; RUN: ptxcc-opt --passes=loop-mapping %s | FileCheck %s
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define void @by_default(
; CHECK: entry:
; CHECK: %[[TID:[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
; CHECK: %[[N:[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
; CHECK: %[[LIMIT:[0-9]+]] = sub i32 2147483647, %[[N]]
; CHECK: %ptxcc.nowrap = icmp sle i32 %ptxcc.ub0, %[[LIMIT]]
; CHECK: %[[CYC:[0-9]+]] = add i32 %ptxcc.lb0, %[[TID]]
; CHECK-NEXT: br i1 %ptxcc.nowrap, label %ptxcc.dealt, label %ptxcc.contiguous, !prof ![[LIKELY:[0-9]+]]
; CHECK: ptxcc.contiguous:
; CHECK: call i32 @llvm.ctlz.i32(i32 %[[N]], i1 true)
; CHECK-NOT: div
; CHECK: br label %ptxcc.dealt
; CHECK: ptxcc.dealt:
; CHECK-NEXT: %[[LB:.*]] = phi i32 [ %[[CYC]], %entry ], [ %ptxcc.lb, %ptxcc.contiguous ]
; CHECK-NEXT: %[[UB:.*]] = phi i32 [ %ptxcc.ub0, %entry ], [ %ptxcc.ub, %ptxcc.contiguous ]
; CHECK: store i32 %[[LB]], ptr %lb
; CHECK: store i32 %[[UB]], ptr %ub
; CHECK: latch:
; CHECK: %[[N2:[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
; CHECK-NEXT: %ptxcc.step = select i1 %ptxcc.nowrap, i32 %[[N2]], i32 1
; CHECK-NEXT: %next = add nsw i32 %i, %ptxcc.step
; CHECK: br label %cond, !llvm.loop ![[LOOP:[0-9]+]]
define void @by_default(ptr %lb, ptr %ub, ptr %st, ptr %last, ptr %out) {
entry:
  %iv = alloca i32
  call void @__kmpc_for_static_init_4(ptr null, i32 0, i32 34, ptr %last, ptr %lb, ptr %ub, ptr %st, i32 1, i32 1)
  %l = load i32, ptr %lb
  store i32 %l, ptr %iv
  br label %cond
cond:
  %c = load i32, ptr %iv
  %u = load i32, ptr %ub
  %in = icmp sle i32 %c, %u
  br i1 %in, label %latch, label %exit
latch:
  %i = load i32, ptr %iv
  store i32 %i, ptr %out
  %next = add nsw i32 %i, 1
  store i32 %next, ptr %iv
  br label %cond
exit:
  ret void
}

; clang's unsigned loops (_4u, _8u) compare unsigned: the limit is UINT_MAX - ntid.x, the flag nuw.
; CHECK-LABEL: define void @unsigned_iv(
; CHECK: %[[N:[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
; CHECK: %[[LIMIT:[0-9]+]] = sub i32 -1, %[[N]]
; CHECK: %ptxcc.nowrap = icmp ule i32 %ptxcc.ub0, %[[LIMIT]]
; CHECK: %next = add nuw i32 %i, %ptxcc.step
; CHECK: br label %cond, !llvm.loop ![[LOOP2:[0-9]+]]
define void @unsigned_iv(ptr %lb, ptr %ub, ptr %st, ptr %last, ptr %out) {
entry:
  %iv = alloca i32
  call void @__kmpc_for_static_init_4u(ptr null, i32 0, i32 34, ptr %last, ptr %lb, ptr %ub, ptr %st, i32 1, i32 1)
  %l = load i32, ptr %lb
  store i32 %l, ptr %iv
  br label %cond
cond:
  %c = load i32, ptr %iv
  %u = load i32, ptr %ub
  %in = icmp ule i32 %c, %u
  br i1 %in, label %latch, label %exit
latch:
  %i = load i32, ptr %iv
  store i32 %i, ptr %out
  %next = add nuw i32 %i, 1
  store i32 %next, ptr %iv
  br label %cond
exit:
  ret void
}

; A loop with a call, or with an inner loop, is mapped the same way but not unrolled.
; CHECK-LABEL: define void @with_call(
; CHECK: %next = add nsw i32 %i, %ptxcc.step
; CHECK-NEXT: store i32 %next, ptr %iv
; CHECK-NEXT: br label %cond{{$}}
define void @with_call(ptr %lb, ptr %ub, ptr %st, ptr %last, ptr %out) {
entry:
  %iv = alloca i32
  call void @__kmpc_for_static_init_4(ptr null, i32 0, i32 34, ptr %last, ptr %lb, ptr %ub, ptr %st, i32 1, i32 1)
  %l = load i32, ptr %lb
  store i32 %l, ptr %iv
  br label %cond
cond:
  %c = load i32, ptr %iv
  %u = load i32, ptr %ub
  %in = icmp sle i32 %c, %u
  br i1 %in, label %latch, label %exit
latch:
  %i = load i32, ptr %iv
  call void @work(i32 %i)
  %next = add nsw i32 %i, 1
  store i32 %next, ptr %iv
  br label %cond
exit:
  ret void
}

; CHECK-LABEL: define void @with_inner_loop(
; CHECK: %next = add nsw i32 %i, %ptxcc.step
; CHECK-NEXT: store i32 %next, ptr %iv
; CHECK-NEXT: br label %cond{{$}}
define void @with_inner_loop(ptr %lb, ptr %ub, ptr %st, ptr %last, ptr %out) {
entry:
  %iv = alloca i32
  call void @__kmpc_for_static_init_4(ptr null, i32 0, i32 34, ptr %last, ptr %lb, ptr %ub, ptr %st, i32 1, i32 1)
  %l = load i32, ptr %lb
  store i32 %l, ptr %iv
  br label %cond
cond:
  %c = load i32, ptr %iv
  %u = load i32, ptr %ub
  %in = icmp sle i32 %c, %u
  br i1 %in, label %body, label %exit
body:
  %j0 = phi i32 [ 0, %cond ], [ %j1, %body ]
  store i32 %j0, ptr %out
  %j1 = add i32 %j0, 1
  %more = icmp slt i32 %j1, 8
  br i1 %more, label %body, label %latch
latch:
  %i = load i32, ptr %iv
  %next = add nsw i32 %i, 1
  store i32 %next, ptr %iv
  br label %cond
exit:
  ret void
}

; CHECK-LABEL: define void @explicit_static(
; CHECK: udiv i32
; CHECK: %next = add nsw i32 %i, 1
define void @explicit_static(ptr %lb, ptr %ub, ptr %st, ptr %last, ptr %out) {
entry:
  %iv = alloca i32
  call void @__kmpc_for_static_init_4(ptr null, i32 0, i32 536870946, ptr %last, ptr %lb, ptr %ub, ptr %st, i32 1, i32 1)
  %l = load i32, ptr %lb
  store i32 %l, ptr %iv
  br label %cond
cond:
  %c = load i32, ptr %iv
  %u = load i32, ptr %ub
  %in = icmp sle i32 %c, %u
  br i1 %in, label %latch, label %exit
latch:
  %i = load i32, ptr %iv
  store i32 %i, ptr %out
  %next = add nsw i32 %i, 1
  store i32 %next, ptr %iv
  br label %cond
exit:
  ret void
}
declare void @__kmpc_for_static_init_4(ptr, i32, i32, ptr, ptr, ptr, ptr, i32, i32)
declare void @__kmpc_for_static_init_4u(ptr, i32, i32, ptr, ptr, ptr, ptr, i32, i32)
declare void @work(i32)

; CHECK: ![[LIKELY]] = !{!"branch_weights", i32 2000, i32 1}
; CHECK: ![[LOOP]] = distinct !{![[LOOP]], ![[PROGRESS:[0-9]+]], ![[COUNT:[0-9]+]]}
; CHECK: ![[PROGRESS]] = !{!"llvm.loop.mustprogress"}
; CHECK: ![[COUNT]] = !{!"llvm.loop.unroll.count", i32 4}
; Each loop has its own ID.
; CHECK: ![[LOOP2]] = distinct !{![[LOOP2]], ![[PROGRESS]], ![[COUNT]]}
