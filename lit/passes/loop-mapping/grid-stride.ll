; `distribute parallel for` without schedule clauses becomes one grid-stride loop: the
; teams-level `distribute` call (schedule 92) gives every block the whole range [lb0, ub0],
; with the trip count as its stride, and its loop's latch branches to the exit (it runs
; once); and the `for` call of the parallel
; region it hands those bounds to (schedule 34, bounds from its prev.lb/prev.ub parameters)
; deals the iterations to the threads of the whole grid: start ctaid.x * ntid.x + tid.x,
; step nctaid.x * ntid.x, computed in 64 bits. A 32-bit loop deals to at most 2^30 threads
; (the others are idle), so that its step cannot wrap; a 64-bit one needs no cap.
; The pair is left to the level-by-level mapping when anything could tell the difference:
; an explicit dist_schedule(static) (listed in the driver hints, !ptxcc.driver_hints),
; an explicit schedule on the inner loop, or inner bounds that do not come from the
; distribute's.
; RUN: ptxcc-opt --passes=loop-mapping %s | FileCheck %s
target triple = "nvptx64-nvidia-cuda"
%struct.ident_t = type { i32, i32, i32, i32, ptr }
@.str.a = private constant [17 x i8] c";g.c;fused;3;1;;\00"
@loc.a = private constant %struct.ident_t { i32 0, i32 2, i32 0, i32 16, ptr @.str.a }
@.str.b = private constant [21 x i8] c";g.c;explicit;12;1;;\00"
@loc.b = private constant %struct.ident_t { i32 0, i32 2, i32 0, i32 19, ptr @.str.b }
!ptxcc.driver_hints = !{!0, !1}
!0 = !{!"version", i32 1}
!1 = !{!"dist_schedule_static", !"g.c", i32 12}

; CHECK-LABEL: define void @fused(
; CHECK: %ptxcc.trip = add i32
; CHECK: store i32 %ptxcc.lb0, ptr %lb
; CHECK-NEXT: store i32 %ptxcc.ub0, ptr %ub
; CHECK-NEXT: store i32 %ptxcc.trip, ptr %st
; CHECK-NEXT: %ptxcc.last32 = zext i1 %ptxcc.islast to i32
; Its loop runs once: the latch branches to the exit, not back to the test.
; CHECK: cond:
; CHECK-NEXT: %i = load i32, ptr %iv
; CHECK: br i1 %in, label %body, label %exit
; CHECK: %next = add nsw i32 %i2, %s
; CHECK-NEXT: store i32 %next, ptr %iv
; CHECK-NEXT: br label %exit
; CHECK-LABEL: define internal void @fused.region(
; CHECK: %[[TID:[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
; CHECK: %[[NTID:[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
; CHECK: %[[CTAID:[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
; CHECK: %[[NCTAID:[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
; CHECK: %ptxcc.grid.id = add nuw i64
; CHECK: %ptxcc.grid.n = mul nuw i64
; CHECK: %ptxcc.idle = icmp uge i64 %ptxcc.grid.id, 1073741824
; CHECK: select i1 %{{[0-9]+}}, i64 %ptxcc.grid.n, i64 1073741824
; CHECK: %ptxcc.id = trunc i64 %ptxcc.grid.id to i32
; CHECK: %ptxcc.n = trunc i64 %{{[0-9]+}} to i32
; CHECK: %ptxcc.nowrap = icmp sle i32 %ptxcc.ub0
; CHECK: add i32 %ptxcc.lb0, %ptxcc.id
; CHECK: ptxcc.dealt:
; CHECK: select i1 %ptxcc.idle
; CHECK: latch:
; CHECK: %ptxcc.grid.n{{[0-9]*}} = mul nuw i64
; CHECK: %ptxcc.step = select i1 %ptxcc.nowrap, i32 %ptxcc.n{{[0-9]*}}, i32 1
; CHECK: %next = add nsw i32 %i, %ptxcc.step
; The grid is sized for about one iteration per thread: the loop is not unrolled (the
; unroller would divide by the step to count its trips).
; CHECK: br label %cond, !llvm.loop ![[NOUNROLL:[0-9]+]]
define void @fused(i32 %ub0, ptr %out) "ptxcc-threads"="team" {
entry:
  %iv = alloca i32
  %lb = alloca i32
  %ub = alloca i32
  %st = alloca i32
  %last = alloca i32
  store i32 0, ptr %lb
  store i32 %ub0, ptr %ub
  store i32 1, ptr %st
  store i32 0, ptr %last
  call void @__kmpc_for_static_init_4(ptr @loc.a, i32 0, i32 92, ptr %last, ptr %lb, ptr %ub, ptr %st, i32 1, i32 1)
  %l0 = load i32, ptr %lb
  store i32 %l0, ptr %iv
  br label %cond
cond:
  %i = load i32, ptr %iv
  %u = load i32, ptr %ub
  %in = icmp sle i32 %i, %u
  br i1 %in, label %body, label %exit
body:
  %plb = load i32, ptr %lb
  %plb64 = zext i32 %plb to i64
  %pub = load i32, ptr %ub
  %pub64 = zext i32 %pub to i64
  call void @fused.region(ptr null, ptr null, i64 %plb64, i64 %pub64, ptr %out)
  %i2 = load i32, ptr %iv
  %s = load i32, ptr %st
  %next = add nsw i32 %i2, %s
  store i32 %next, ptr %iv
  br label %cond
exit:
  ret void
}

define internal void @fused.region(ptr %0, ptr %1, i64 %prev.lb, i64 %prev.ub, ptr %out) {
entry:
  %prev.lb.addr = alloca i64
  %prev.ub.addr = alloca i64
  %iv = alloca i32
  %lb = alloca i32
  %ub = alloca i32
  %st = alloca i32
  %last = alloca i32
  store i64 %prev.lb, ptr %prev.lb.addr
  store i64 %prev.ub, ptr %prev.ub.addr
  store i32 0, ptr %lb
  store i32 0, ptr %ub
  %a = load i64, ptr %prev.lb.addr
  %at = trunc i64 %a to i32
  %b = load i64, ptr %prev.ub.addr
  %bt = trunc i64 %b to i32
  store i32 %at, ptr %lb
  store i32 %bt, ptr %ub
  store i32 1, ptr %st
  store i32 0, ptr %last
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

; A 64-bit loop: no cap, no idle threads.
; CHECK-LABEL: define internal void @long.region(
; CHECK: %ptxcc.grid.n = mul nuw i64
; CHECK-NOT: 1073741824
; CHECK: %ptxcc.nowrap = icmp sle i64 %ptxcc.ub0
; CHECK: latch:
; CHECK: %ptxcc.step = select i1 %ptxcc.nowrap, i64 %ptxcc.grid.n{{[0-9]*}}, i64 1
; No 32-bit copy of the loop (narrow-iv): one loop, not unrolled.
; CHECK-NOT: ptxcc.fits
; CHECK: br label %cond, !llvm.loop ![[NOUNROLL2:[0-9]+]]
define void @long(i64 %ub0, ptr %out) "ptxcc-threads"="team" {
entry:
  %iv = alloca i64
  %lb = alloca i64
  %ub = alloca i64
  %st = alloca i64
  %last = alloca i32
  store i64 0, ptr %lb
  store i64 %ub0, ptr %ub
  store i64 1, ptr %st
  store i32 0, ptr %last
  call void @__kmpc_for_static_init_8(ptr null, i32 0, i32 92, ptr %last, ptr %lb, ptr %ub, ptr %st, i64 1, i64 1)
  %l0 = load i64, ptr %lb
  store i64 %l0, ptr %iv
  br label %cond
cond:
  %i = load i64, ptr %iv
  %u = load i64, ptr %ub
  %in = icmp sle i64 %i, %u
  br i1 %in, label %body, label %exit
body:
  %plb = load i64, ptr %lb
  %pub = load i64, ptr %ub
  call void @long.region(ptr null, ptr null, i64 %plb, i64 %pub, ptr %out)
  %i2 = load i64, ptr %iv
  %s = load i64, ptr %st
  %next = add nsw i64 %i2, %s
  store i64 %next, ptr %iv
  br label %cond
exit:
  ret void
}

define internal void @long.region(ptr %0, ptr %1, i64 %prev.lb, i64 %prev.ub, ptr %out) {
entry:
  %prev.lb.addr = alloca i64
  %prev.ub.addr = alloca i64
  %iv = alloca i64
  %lb = alloca i64
  %ub = alloca i64
  %st = alloca i64
  %last = alloca i32
  store i64 %prev.lb, ptr %prev.lb.addr
  store i64 %prev.ub, ptr %prev.ub.addr
  store i64 0, ptr %lb
  store i64 0, ptr %ub
  %a = load i64, ptr %prev.lb.addr
  %b = load i64, ptr %prev.ub.addr
  store i64 %a, ptr %lb
  store i64 %b, ptr %ub
  store i64 1, ptr %st
  store i32 0, ptr %last
  call void @__kmpc_for_static_init_8(ptr null, i32 0, i32 34, ptr %last, ptr %lb, ptr %ub, ptr %st, i64 1, i64 1)
  %l = load i64, ptr %lb
  store i64 %l, ptr %iv
  br label %cond
cond:
  %c = load i64, ptr %iv
  %u = load i64, ptr %ub
  %in = icmp sle i64 %c, %u
  br i1 %in, label %latch, label %exit
latch:
  %i = load i64, ptr %iv
  store i64 %i, ptr %out
  %next = add nsw i64 %i, 1
  store i64 %next, ptr %iv
  br label %cond
exit:
  ret void
}

; dist_schedule(static) at g.c:12: each block keeps its contiguous part, the threads theirs.
; CHECK-LABEL: define void @explicit(
; CHECK: udiv i32
; CHECK: store i32 %ptxcc.len, ptr %st
; CHECK-LABEL: define internal void @explicit.region(
; CHECK-NOT: ctaid
; CHECK: ret void
define void @explicit(i32 %ub0, ptr %out) "ptxcc-threads"="team" {
entry:
  %iv = alloca i32
  %lb = alloca i32
  %ub = alloca i32
  %st = alloca i32
  %last = alloca i32
  store i32 0, ptr %lb
  store i32 %ub0, ptr %ub
  store i32 1, ptr %st
  store i32 0, ptr %last
  call void @__kmpc_for_static_init_4(ptr @loc.b, i32 0, i32 92, ptr %last, ptr %lb, ptr %ub, ptr %st, i32 1, i32 1)
  %l0 = load i32, ptr %lb
  store i32 %l0, ptr %iv
  br label %cond
cond:
  %i = load i32, ptr %iv
  %u = load i32, ptr %ub
  %in = icmp sle i32 %i, %u
  br i1 %in, label %body, label %exit
body:
  %plb = load i32, ptr %lb
  %plb64 = zext i32 %plb to i64
  %pub = load i32, ptr %ub
  %pub64 = zext i32 %pub to i64
  call void @explicit.region(ptr null, ptr null, i64 %plb64, i64 %pub64, ptr %out)
  %i2 = load i32, ptr %iv
  %s = load i32, ptr %st
  %next = add nsw i32 %i2, %s
  store i32 %next, ptr %iv
  br label %cond
exit:
  ret void
}

define internal void @explicit.region(ptr %0, ptr %1, i64 %prev.lb, i64 %prev.ub, ptr %out) {
entry:
  %prev.lb.addr = alloca i64
  %prev.ub.addr = alloca i64
  %iv = alloca i32
  %lb = alloca i32
  %ub = alloca i32
  %st = alloca i32
  %last = alloca i32
  store i64 %prev.lb, ptr %prev.lb.addr
  store i64 %prev.ub, ptr %prev.ub.addr
  store i32 0, ptr %lb
  store i32 0, ptr %ub
  %a = load i64, ptr %prev.lb.addr
  %at = trunc i64 %a to i32
  %b = load i64, ptr %prev.ub.addr
  %bt = trunc i64 %b to i32
  store i32 %at, ptr %lb
  store i32 %bt, ptr %ub
  store i32 1, ptr %st
  store i32 0, ptr %last
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

; lastprivate at the distribute level reads %last: it says whether the block holds the grid
; thread that runs the last iteration, thread last_off % n (or, in the fallback for a step that
; could wrap, the owner of the last contiguous part), block owner / ntid.x.
; CHECK-LABEL: define void @lastprivate(
; CHECK: %ptxcc.nowrap = icmp sle i32 %ptxcc.ub0
; CHECK: %[[CYC:[0-9]+]] = urem i32 %{{[0-9]+}}, %ptxcc.n
; CHECK: %[[PART:[0-9]+]] = udiv i32 %{{[0-9]+}}, %{{[0-9]+}}
; CHECK: %ptxcc.owner = select i1 %ptxcc.nowrap, i32 %[[CYC]], i32 %[[PART]]
; CHECK: %[[NTID:[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
; CHECK: %[[CTAID:[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
; CHECK: %[[BLOCK:[0-9]+]] = udiv i32 %ptxcc.owner, %[[NTID]]
; CHECK: %ptxcc.islast = icmp eq i32 %[[BLOCK]], %[[CTAID]]
; CHECK: store i32 %ptxcc.lb0, ptr %lb
; CHECK: store i32 %ptxcc.trip, ptr %st
; CHECK: %ptxcc.last32 = zext i1 %ptxcc.islast to i32
; CHECK-NEXT: store i32 %ptxcc.last32, ptr %last
; CHECK-LABEL: define internal void @lastprivate.region(
; CHECK: %ptxcc.grid.id = add nuw i64
define void @lastprivate(i32 %ub0, ptr %out) "ptxcc-threads"="team" {
entry:
  %iv = alloca i32
  %lb = alloca i32
  %ub = alloca i32
  %st = alloca i32
  %last = alloca i32
  store i32 0, ptr %lb
  store i32 %ub0, ptr %ub
  store i32 1, ptr %st
  store i32 0, ptr %last
  call void @__kmpc_for_static_init_4(ptr null, i32 0, i32 92, ptr %last, ptr %lb, ptr %ub, ptr %st, i32 1, i32 1)
  %l0 = load i32, ptr %lb
  store i32 %l0, ptr %iv
  br label %cond
cond:
  %i = load i32, ptr %iv
  %u = load i32, ptr %ub
  %in = icmp sle i32 %i, %u
  br i1 %in, label %body, label %exit
body:
  %plb = load i32, ptr %lb
  %plb64 = zext i32 %plb to i64
  %pub = load i32, ptr %ub
  %pub64 = zext i32 %pub to i64
  call void @lastprivate.region(ptr null, ptr null, i64 %plb64, i64 %pub64, ptr %out)
  %i2 = load i32, ptr %iv
  %s = load i32, ptr %st
  %next = add nsw i32 %i2, %s
  store i32 %next, ptr %iv
  br label %cond
exit:
  %lastv = load i32, ptr %last
  store i32 %lastv, ptr %out
  ret void
}

define internal void @lastprivate.region(ptr %0, ptr %1, i64 %prev.lb, i64 %prev.ub, ptr %out) {
entry:
  %prev.lb.addr = alloca i64
  %prev.ub.addr = alloca i64
  %iv = alloca i32
  %lb = alloca i32
  %ub = alloca i32
  %st = alloca i32
  %last = alloca i32
  store i64 %prev.lb, ptr %prev.lb.addr
  store i64 %prev.ub, ptr %prev.ub.addr
  store i32 0, ptr %lb
  store i32 0, ptr %ub
  %a = load i64, ptr %prev.lb.addr
  %at = trunc i64 %a to i32
  %b = load i64, ptr %prev.ub.addr
  %bt = trunc i64 %b to i32
  store i32 %at, ptr %lb
  store i32 %bt, ptr %ub
  store i32 1, ptr %st
  store i32 0, ptr %last
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

; schedule(static) on the inner loop (the monotonic modifier).
; CHECK-LABEL: define void @inner_static(
; CHECK: udiv i32
; CHECK-LABEL: define internal void @inner_static.region(
; CHECK-NOT: ctaid
; CHECK: ret void
define void @inner_static(i32 %ub0, ptr %out) "ptxcc-threads"="team" {
entry:
  %iv = alloca i32
  %lb = alloca i32
  %ub = alloca i32
  %st = alloca i32
  %last = alloca i32
  store i32 0, ptr %lb
  store i32 %ub0, ptr %ub
  store i32 1, ptr %st
  store i32 0, ptr %last
  call void @__kmpc_for_static_init_4(ptr null, i32 0, i32 92, ptr %last, ptr %lb, ptr %ub, ptr %st, i32 1, i32 1)
  %l0 = load i32, ptr %lb
  store i32 %l0, ptr %iv
  br label %cond
cond:
  %i = load i32, ptr %iv
  %u = load i32, ptr %ub
  %in = icmp sle i32 %i, %u
  br i1 %in, label %body, label %exit
body:
  %plb = load i32, ptr %lb
  %plb64 = zext i32 %plb to i64
  %pub = load i32, ptr %ub
  %pub64 = zext i32 %pub to i64
  call void @inner_static.region(ptr null, ptr null, i64 %plb64, i64 %pub64, ptr %out)
  %i2 = load i32, ptr %iv
  %s = load i32, ptr %st
  %next = add nsw i32 %i2, %s
  store i32 %next, ptr %iv
  br label %cond
exit:
  ret void
}

define internal void @inner_static.region(ptr %0, ptr %1, i64 %prev.lb, i64 %prev.ub, ptr %out) {
entry:
  %prev.lb.addr = alloca i64
  %prev.ub.addr = alloca i64
  %iv = alloca i32
  %lb = alloca i32
  %ub = alloca i32
  %st = alloca i32
  %last = alloca i32
  store i64 %prev.lb, ptr %prev.lb.addr
  store i64 %prev.ub, ptr %prev.ub.addr
  store i32 0, ptr %lb
  store i32 0, ptr %ub
  %a = load i64, ptr %prev.lb.addr
  %at = trunc i64 %a to i32
  %b = load i64, ptr %prev.ub.addr
  %bt = trunc i64 %b to i32
  store i32 %at, ptr %lb
  store i32 %bt, ptr %ub
  store i32 1, ptr %st
  store i32 0, ptr %last
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

; A parallel loop of its own inside the distribute loop (its bounds are not prev.lb/prev.ub).
; CHECK-LABEL: define void @own_bounds(
; CHECK: udiv i32
; CHECK-LABEL: define internal void @own_bounds.region(
; CHECK-NOT: ctaid
; CHECK: ret void
define void @own_bounds(i32 %ub0, ptr %out) "ptxcc-threads"="team" {
entry:
  %iv = alloca i32
  %lb = alloca i32
  %ub = alloca i32
  %st = alloca i32
  %last = alloca i32
  store i32 0, ptr %lb
  store i32 %ub0, ptr %ub
  store i32 1, ptr %st
  store i32 0, ptr %last
  call void @__kmpc_for_static_init_4(ptr null, i32 0, i32 92, ptr %last, ptr %lb, ptr %ub, ptr %st, i32 1, i32 1)
  %l0 = load i32, ptr %lb
  store i32 %l0, ptr %iv
  br label %cond
cond:
  %i = load i32, ptr %iv
  %u = load i32, ptr %ub
  %in = icmp sle i32 %i, %u
  br i1 %in, label %body, label %exit
body:
  %plb = load i32, ptr %lb
  %plb64 = zext i32 %plb to i64
  %pub = load i32, ptr %ub
  %pub64 = zext i32 %pub to i64
  call void @own_bounds.region(ptr null, ptr null, i64 %plb64, i64 %pub64, ptr %out)
  %i2 = load i32, ptr %iv
  %s = load i32, ptr %st
  %next = add nsw i32 %i2, %s
  store i32 %next, ptr %iv
  br label %cond
exit:
  ret void
}

define internal void @own_bounds.region(ptr %0, ptr %1, i64 %prev.lb, i64 %prev.ub, ptr %out) {
entry:
  %prev.lb.addr = alloca i64
  %prev.ub.addr = alloca i64
  %iv = alloca i32
  %lb = alloca i32
  %ub = alloca i32
  %st = alloca i32
  %last = alloca i32
  store i64 %prev.lb, ptr %prev.lb.addr
  store i64 %prev.ub, ptr %prev.ub.addr
  store i32 0, ptr %lb
  store i32 0, ptr %ub
  store i32 99, ptr %ub
  store i32 1, ptr %st
  store i32 0, ptr %last
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

declare void @__kmpc_for_static_init_4(ptr, i32, i32, ptr, ptr, ptr, ptr, i32, i32)
declare void @__kmpc_for_static_init_8(ptr, i32, i32, ptr, ptr, ptr, ptr, i64, i64)
; CHECK: ![[NOUNROLL]] = distinct !{![[NOUNROLL]], ![[PROGRESS:[0-9]+]], ![[DISABLE:[0-9]+]]}
; CHECK: ![[DISABLE]] = !{!"llvm.loop.unroll.disable"}
; CHECK: ![[NOUNROLL2]] = distinct !{![[NOUNROLL2]], ![[PROGRESS]], ![[DISABLE]]}
