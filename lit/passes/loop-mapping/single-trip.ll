; A grid-stride loop (a `distribute parallel for` pair) whose counter a running quotient
; divides gets a copy for the threads that run one iteration (single_trip.rs): the runtime
; sizes its grid from the trip count, so that is nearly every thread, and the copy leaves out
; the steps the latch would make for nothing. Before the loop the start is divided; the step
; only where the thread takes a second one (%ptxcc.more), which also chooses the copy:
; the loop reads the step's quotients only where they were computed (poison from the other
; edge). The copy's latch leaves the loop, with no loop metadata; its instructions are marked
; as a loop copy (!ptxcc.loop_copy), which automatic layout counts once. A body with a convergent
; call (a barrier must not depend on a per-thread condition) keeps one loop and its zeros;
; a plain call is copied. An unsigned loop (`_8u`) compares the start with the last counter
; unsigned, as its own test does (its last counter may be above the signed maximum).
; RUN: ptxcc-opt --passes=loop-mapping %s | FileCheck %s
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define internal void @once.region(
; CHECK: ptxcc.decide:
; CHECK-NEXT: %[[S:[0-9]+]] = load i64, ptr %iv
; CHECK-NEXT: %[[IN:[0-9]+]] = icmp sle i64 %[[S]], %ptxcc.ub0
; CHECK: %ptxcc.more = and i1
; CHECK: br i1 %ptxcc.more, label %ptxcc.steps, label %ptxcc.steps.join
; (The loop may take its indices from a grid of its shape, grid-shape.ll: no step then, and
; %ptxcc.more.grid says whether `steps` ran.)
; CHECK: ptxcc.steps.join:
; CHECK-NEXT: %ptxcc.more.grid = phi i1 [ false, %ptxcc.decide ], [ true, %ptxcc.steps ], [ false, %ptxcc.known ]
; CHECK-NEXT: %ptxcc.step.rem = phi i64 [ poison, %ptxcc.decide ], [ %{{[0-9]+}}, %ptxcc.steps ], [ poison, %ptxcc.known ]
; CHECK-NEXT: %ptxcc.step.quot = phi i64 [ poison, %ptxcc.decide ], [ %{{[0-9]+}}, %ptxcc.steps ], [ poison, %ptxcc.known ]
; CHECK-NEXT: br i1 %ptxcc.more.grid, label %cond, label %cond.once
; CHECK: cond:
; CHECK: br i1 %in, label %body, label %exit
; CHECK: cond.once:
; CHECK-NEXT: %[[C:[0-9]+]] = load i64, ptr %iv, align 4, !ptxcc.loop_copy
; CHECK-NEXT: %[[U:[0-9]+]] = load i64, ptr %ub, align 4, !ptxcc.loop_copy
; CHECK-NEXT: %[[IN:[0-9]+]] = icmp sle i64 %[[C]], %[[U]], !ptxcc.loop_copy
; CHECK-NEXT: br i1 %[[IN]], label %body.once, label %exit, !ptxcc.loop_copy
; CHECK: latch.once:
; CHECK: store i64 %{{[0-9]+}}, ptr %ptxcc.quot, align 4, !ptxcc.loop_copy ![[COPY:[0-9]+]]
; CHECK-NEXT: br label %exit, !ptxcc.loop_copy ![[COPY]]{{$}}
; CHECK: body.once:
; CHECK: load i64, ptr %ptxcc.quot
; CHECK: br label %latch.once
; CHECK: latch:
; CHECK: store i64 %{{[0-9]+}}, ptr %ptxcc.quot
; CHECK-NEXT: br label %cond, !llvm.loop
; CHECK: exit:
; CHECK-NEXT: ret void

; CHECK-LABEL: define internal void @barrier.region(
; CHECK: ptxcc.steps.join:
; CHECK-NEXT: %ptxcc.more.grid = phi i1
; CHECK-NEXT: %ptxcc.step.rem = phi i64 [ 0, %ptxcc.decide ], [ %{{[0-9]+}}, %ptxcc.steps ], [ 0, %ptxcc.known ]
; CHECK-NEXT: %ptxcc.step.quot = phi i64 [ 0, %ptxcc.decide ], [ %{{[0-9]+}}, %ptxcc.steps ], [ 0, %ptxcc.known ]
; CHECK-NEXT: br label %cond
; CHECK-NOT: .once

; CHECK-LABEL: define internal void @plain_call.region(
; CHECK: br i1 %ptxcc.more.grid, label %cond, label %cond.once
; CHECK: body.once:
; CHECK: call void @work(

; CHECK-LABEL: define internal void @unsigned_once.region(
; CHECK: ptxcc.decide:
; CHECK-NEXT: %[[S:[0-9]+]] = load i64, ptr %iv
; CHECK-NEXT: %[[IN:[0-9]+]] = icmp ule i64 %[[S]], %ptxcc.ub0
; CHECK-NEXT: %[[LEFT:[0-9]+]] = sub i64 %ptxcc.ub0, %[[S]]
; CHECK-NEXT: %[[AGAIN:[0-9]+]] = icmp uge i64 %[[LEFT]], %ptxcc.step0
; CHECK-NEXT: %ptxcc.more = and i1 %[[IN]], %[[AGAIN]]
; CHECK: br i1 %ptxcc.more.grid, label %cond, label %cond.once


define void @once(i64 %ub0, i64 %m, ptr %out) "ptxcc-threads"="team" {
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
  call void @once.region(ptr null, ptr null, i64 %plb, i64 %pub, i64 %m, ptr %out)
  %i2 = load i64, ptr %iv
  %s = load i64, ptr %st
  %next = add nsw i64 %i2, %s
  store i64 %next, ptr %iv
  br label %cond
exit:
  ret void
}

define internal void @once.region(ptr %0, ptr %1, i64 %prev.lb, i64 %prev.ub, i64 %m, ptr %out) {
entry:
  %m.addr = alloca i64
  %iv = alloca i64
  %lb = alloca i64
  %ub = alloca i64
  %st = alloca i64
  %last = alloca i32
  store i64 %m, ptr %m.addr
  store i64 %prev.lb, ptr %lb
  store i64 %prev.ub, ptr %ub
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
  br i1 %in, label %body, label %exit
body:
  %i0 = load i64, ptr %iv
  %m0 = load i64, ptr %m.addr
  %q = sdiv i64 %i0, %m0
  %p = getelementptr i64, ptr %out, i64 %i0
  store i64 %q, ptr %p
  br label %latch
latch:
  %i = load i64, ptr %iv
  %next = add nsw i64 %i, 1
  store i64 %next, ptr %iv
  br label %cond
exit:
  ret void
}


define void @barrier(i64 %ub0, i64 %m, ptr %out) "ptxcc-threads"="team" {
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
  call void @barrier.region(ptr null, ptr null, i64 %plb, i64 %pub, i64 %m, ptr %out)
  %i2 = load i64, ptr %iv
  %s = load i64, ptr %st
  %next = add nsw i64 %i2, %s
  store i64 %next, ptr %iv
  br label %cond
exit:
  ret void
}

define internal void @barrier.region(ptr %0, ptr %1, i64 %prev.lb, i64 %prev.ub, i64 %m, ptr %out) {
entry:
  %m.addr = alloca i64
  %iv = alloca i64
  %lb = alloca i64
  %ub = alloca i64
  %st = alloca i64
  %last = alloca i32
  store i64 %m, ptr %m.addr
  store i64 %prev.lb, ptr %lb
  store i64 %prev.ub, ptr %ub
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
  br i1 %in, label %body, label %exit
body:
  %i0 = load i64, ptr %iv
  %m0 = load i64, ptr %m.addr
  %q = sdiv i64 %i0, %m0
  %p = getelementptr i64, ptr %out, i64 %i0
  call void @sync()
  store i64 %q, ptr %p
  br label %latch
latch:
  %i = load i64, ptr %iv
  %next = add nsw i64 %i, 1
  store i64 %next, ptr %iv
  br label %cond
exit:
  ret void
}


define void @plain_call(i64 %ub0, i64 %m, ptr %out) "ptxcc-threads"="team" {
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
  call void @plain_call.region(ptr null, ptr null, i64 %plb, i64 %pub, i64 %m, ptr %out)
  %i2 = load i64, ptr %iv
  %s = load i64, ptr %st
  %next = add nsw i64 %i2, %s
  store i64 %next, ptr %iv
  br label %cond
exit:
  ret void
}

define internal void @plain_call.region(ptr %0, ptr %1, i64 %prev.lb, i64 %prev.ub, i64 %m, ptr %out) {
entry:
  %m.addr = alloca i64
  %iv = alloca i64
  %lb = alloca i64
  %ub = alloca i64
  %st = alloca i64
  %last = alloca i32
  store i64 %m, ptr %m.addr
  store i64 %prev.lb, ptr %lb
  store i64 %prev.ub, ptr %ub
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
  br i1 %in, label %body, label %exit
body:
  %i0 = load i64, ptr %iv
  %m0 = load i64, ptr %m.addr
  %q = sdiv i64 %i0, %m0
  %p = getelementptr i64, ptr %out, i64 %i0
  call void @work(ptr %p)
  store i64 %q, ptr %p
  br label %latch
latch:
  %i = load i64, ptr %iv
  %next = add nsw i64 %i, 1
  store i64 %next, ptr %iv
  br label %cond
exit:
  ret void
}


define void @unsigned_once(i64 %ub0, i64 %m, ptr %out) "ptxcc-threads"="team" {
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
  call void @unsigned_once.region(ptr null, ptr null, i64 %plb, i64 %pub, i64 %m, ptr %out)
  %i2 = load i64, ptr %iv
  %s = load i64, ptr %st
  %next = add nsw i64 %i2, %s
  store i64 %next, ptr %iv
  br label %cond
exit:
  ret void
}

define internal void @unsigned_once.region(ptr %0, ptr %1, i64 %prev.lb, i64 %prev.ub, i64 %m, ptr %out) {
entry:
  %m.addr = alloca i64
  %iv = alloca i64
  %lb = alloca i64
  %ub = alloca i64
  %st = alloca i64
  %last = alloca i32
  store i64 %m, ptr %m.addr
  store i64 %prev.lb, ptr %lb
  store i64 %prev.ub, ptr %ub
  store i64 1, ptr %st
  store i32 0, ptr %last
  call void @__kmpc_for_static_init_8u(ptr null, i32 0, i32 34, ptr %last, ptr %lb, ptr %ub, ptr %st, i64 1, i64 1)
  %l = load i64, ptr %lb
  store i64 %l, ptr %iv
  br label %cond
cond:
  %c = load i64, ptr %iv
  %u = load i64, ptr %ub
  %in = icmp ule i64 %c, %u
  br i1 %in, label %body, label %exit
body:
  %i0 = load i64, ptr %iv
  %m0 = load i64, ptr %m.addr
  %q = udiv i64 %i0, %m0
  %p = getelementptr i64, ptr %out, i64 %i0
  store i64 %q, ptr %p
  br label %latch
latch:
  %i = load i64, ptr %iv
  %next = add nsw i64 %i, 1
  store i64 %next, ptr %iv
  br label %cond
exit:
  ret void
}

declare void @sync() convergent
declare void @work(ptr)
declare void @__kmpc_for_static_init_8(ptr, i32, i32, ptr, ptr, ptr, ptr, i64, i64)
declare void @__kmpc_for_static_init_8u(ptr, i32, i32, ptr, ptr, ptr, ptr, i64, i64)
