; A cyclic loop's divisions of its counter by a loop invariant (clang's index recovery in a
; collapse(2) loop) become a running quotient: before the loop, the divisor is recomputed
; (1 if not positive), the start is divided once, and the step too where the thread takes a
; second one (%ptxcc.more; 0 otherwise, which the latch then adds); in the loop each division
; reads the quotient (and clang's iv - q * m the remainder), which the latch advances with the counter (remainder + step's
; remainder, a carry when it reaches the divisor). Divisions by the same expression (reloaded)
; share one quotient (clang's `(x - 0) / 1 * 1` is x). (The loops are `long` ones, which the
; 32-bit copy then versions; both copies read the quotient.) Left alone: a divisor the loop writes, a signed loop whose start is not
; known to be >= 0, and a division of the other signedness.
; RUN: ptxcc-opt --passes=loop-mapping %s | FileCheck %s
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define void @collapse2(
; CHECK: %ptxcc.quot = alloca i64
; CHECK-NEXT: %ptxcc.rem = alloca i64
; CHECK-NOT: %ptxcc.quot{{[0-9]}}
; CHECK: store i64 %l, ptr %iv
; CHECK-NEXT: %[[M0:[0-9]+]] = load i64, ptr %m.addr
; CHECK-NEXT: %[[M1:[0-9]+]] = sub nsw i64 %[[M0]], 0
; CHECK-NEXT: %[[M2:[0-9]+]] = sdiv i64 %[[M1]], 1
; CHECK-NEXT: %[[M3:[0-9]+]] = mul nsw i64 1, %[[M2]]
; CHECK-NEXT: %[[POS:[0-9]+]] = icmp sgt i64 %[[M3]], 0
; CHECK-NEXT: %ptxcc.divisor = select i1 %[[POS]], i64 %[[M3]], i64 1
; CHECK-NEXT: br label %ptxcc.divide
; CHECK: ptxcc.divide:
; CHECK-NEXT: %[[LB:[0-9]+]] = load i64, ptr %iv
; CHECK-NEXT: %[[Q0:[0-9]+]] = udiv i64 %[[LB]], %ptxcc.divisor
; CHECK-NEXT: store i64 %[[Q0]], ptr %ptxcc.quot
; CHECK-NEXT: %[[R0:[0-9]+]] = urem i64 %[[LB]], %ptxcc.divisor
; CHECK-NEXT: store i64 %[[R0]], ptr %ptxcc.rem
; CHECK-NEXT: br label %ptxcc.decide
; CHECK: ptxcc.decide:
; CHECK-NEXT: %[[S:[0-9]+]] = load i64, ptr %iv
; CHECK-NEXT: %[[IN:[0-9]+]] = icmp sle i64 %[[S]], %ptxcc.ub0
; CHECK-NEXT: %[[LEFT:[0-9]+]] = sub i64 %ptxcc.ub0, %[[S]]
; CHECK-NEXT: %[[AGAIN:[0-9]+]] = icmp uge i64 %[[LEFT]], %ptxcc.step0
; CHECK-NEXT: %ptxcc.more = and i1 %[[IN]], %[[AGAIN]]
; CHECK-NEXT: br i1 %ptxcc.more, label %ptxcc.steps, label %ptxcc.steps.join
; CHECK: ptxcc.steps:
; CHECK-NEXT: %[[SQ:[0-9]+]] = udiv i64 %ptxcc.step0, %ptxcc.divisor
; CHECK-NEXT: %[[SR:[0-9]+]] = urem i64 %ptxcc.step0, %ptxcc.divisor
; CHECK-NEXT: br label %ptxcc.steps.join
; CHECK: ptxcc.steps.join:
; CHECK-NEXT: %ptxcc.step.rem = phi i64 [ 0, %ptxcc.decide ], [ %[[SR]], %ptxcc.steps ]
; CHECK-NEXT: %ptxcc.step.quot = phi i64 [ 0, %ptxcc.decide ], [ %[[SQ]], %ptxcc.steps ]
; CHECK-NEXT: br label %ptxcc.fits
; CHECK: body:
; CHECK-NOT: sdiv i64 %i
; CHECK: %[[Q:ptxcc.q[0-9]*]] = load i64, ptr %ptxcc.quot,
; CHECK: %[[Q2:ptxcc.q[0-9]*]] = load i64, ptr %ptxcc.quot,
; CHECK-NEXT: %qm = mul nsw i64 %[[Q2]], %m1
; clang's remainder, iv - q * m, is the running remainder.
; CHECK-NEXT: %[[R:ptxcc.r[0-9]*]] = load i64, ptr %ptxcc.rem,
; CHECK-NEXT: %x = add nsw i64 %[[R]], %qm
; CHECK-NEXT: %p = getelementptr i64, ptr %out, i64 %x
; CHECK: store i64 %[[Q]], ptr %p
; CHECK: latch:
; CHECK: store i64 %next, ptr %iv
; CHECK-NEXT: %[[R1:[0-9]+]] = load i64, ptr %ptxcc.rem
; CHECK-NEXT: %[[R2:[0-9]+]] = add i64 %[[R1]], %ptxcc.step.rem
; CHECK-NEXT: %ptxcc.carry = icmp uge i64 %[[R2]], %ptxcc.divisor
; CHECK-NEXT: %[[R3:[0-9]+]] = sub i64 %[[R2]], %ptxcc.divisor
; CHECK-NEXT: %[[R4:[0-9]+]] = select i1 %ptxcc.carry, i64 %[[R3]], i64 %[[R2]]
; CHECK-NEXT: store i64 %[[R4]], ptr %ptxcc.rem
; CHECK-NEXT: %[[Q1:[0-9]+]] = load i64, ptr %ptxcc.quot
; CHECK-NEXT: %[[Q2:[0-9]+]] = add i64 %[[Q1]], %ptxcc.step.quot
; CHECK-NEXT: %[[C:[0-9]+]] = zext i1 %ptxcc.carry to i64
; CHECK-NEXT: %[[Q3:[0-9]+]] = add i64 %[[Q2]], %[[C]]
; CHECK-NEXT: store i64 %[[Q3]], ptr %ptxcc.quot
; CHECK-NEXT: br label %cond
define void @collapse2(i64 %m, i64 %n1, ptr %out) {
entry:
  %m.addr = alloca i64
  %iv = alloca i64
  %lb = alloca i64
  %ub = alloca i64
  %st = alloca i64
  %last = alloca i32
  store i64 %m, ptr %m.addr
  store i64 0, ptr %lb
  store i64 %n1, ptr %ub
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
  %d0 = sub nsw i64 %m0, 0
  %d1 = sdiv i64 %d0, 1
  %d2 = mul nsw i64 1, %d1
  %q = sdiv i64 %i0, %d2
  %i1 = load i64, ptr %iv
  %i2 = load i64, ptr %iv
  %m1 = load i64, ptr %m.addr
  %q2 = sdiv i64 %i2, %m1
  %qm = mul nsw i64 %q2, %m1
  %r = sub nsw i64 %i1, %qm
  %x = add nsw i64 %r, %qm
  %p = getelementptr i64, ptr %out, i64 %x
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

; CHECK-LABEL: define void @divisor_written(
; CHECK-NOT: ptxcc.quot
; CHECK: %q = sdiv i64 %i0, %d2
define void @divisor_written(i64 %m, i64 %n1, ptr %out) {
entry:
  %m.addr = alloca i64
  %iv = alloca i64
  %lb = alloca i64
  %ub = alloca i64
  %st = alloca i64
  %last = alloca i32
  store i64 %m, ptr %m.addr
  store i64 0, ptr %lb
  store i64 %n1, ptr %ub
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
  %d0 = sub nsw i64 %m0, 0
  %d1 = sdiv i64 %d0, 1
  %d2 = mul nsw i64 1, %d1
  %q = sdiv i64 %i0, %d2
  %i1 = load i64, ptr %iv
  %i2 = load i64, ptr %iv
  %m1 = load i64, ptr %m.addr
  %q2 = sdiv i64 %i2, %m1
  %qm = mul nsw i64 %q2, %m1
  %r = sub nsw i64 %i1, %qm
  %x = add nsw i64 %r, %qm
  %p = getelementptr i64, ptr %out, i64 %x
  store i64 %q, ptr %p
  store i64 7, ptr %m.addr
  br label %latch
latch:
  %i = load i64, ptr %iv
  %next = add nsw i64 %i, 1
  store i64 %next, ptr %iv
  br label %cond
exit:
  ret void
}

; CHECK-LABEL: define void @unknown_start(
; CHECK-NOT: ptxcc.quot
; CHECK: %q = sdiv i64 %i0, %d2
define void @unknown_start(i64 %m, i64 %n1, ptr %out) {
entry:
  %m.addr = alloca i64
  %iv = alloca i64
  %lb = alloca i64
  %ub = alloca i64
  %st = alloca i64
  %last = alloca i32
  store i64 %m, ptr %m.addr
  %unknown = load i64, ptr %out
  store i64 %unknown, ptr %lb
  store i64 %n1, ptr %ub
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
  %d0 = sub nsw i64 %m0, 0
  %d1 = sdiv i64 %d0, 1
  %d2 = mul nsw i64 1, %d1
  %q = sdiv i64 %i0, %d2
  %i1 = load i64, ptr %iv
  %i2 = load i64, ptr %iv
  %m1 = load i64, ptr %m.addr
  %q2 = sdiv i64 %i2, %m1
  %qm = mul nsw i64 %q2, %m1
  %r = sub nsw i64 %i1, %qm
  %x = add nsw i64 %r, %qm
  %p = getelementptr i64, ptr %out, i64 %x
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

; An unsigned loop (_8u): its udiv divisions.
; CHECK-LABEL: define void @unsigned_loop(
; CHECK: %ptxcc.quot = alloca i64
; CHECK: = load i64, ptr %ptxcc.quot,
define void @unsigned_loop(i64 %m, i64 %n1, ptr %out) {
entry:
  %m.addr = alloca i64
  %iv = alloca i64
  %lb = alloca i64
  %ub = alloca i64
  %st = alloca i64
  %last = alloca i32
  store i64 %m, ptr %m.addr
  store i64 %n1, ptr %lb
  store i64 %n1, ptr %ub
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
  %d0 = sub nsw i64 %m0, 0
  %d1 = sdiv i64 %d0, 1
  %d2 = mul nsw i64 1, %d1
  %q = udiv i64 %i0, %d2
  %i1 = load i64, ptr %iv
  %i2 = load i64, ptr %iv
  %m1 = load i64, ptr %m.addr
  %q2 = udiv i64 %i2, %m1
  %qm = mul nsw i64 %q2, %m1
  %r = sub nsw i64 %i1, %qm
  %x = add nsw i64 %r, %qm
  %p = getelementptr i64, ptr %out, i64 %x
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

; CHECK-LABEL: define void @other_signedness(
; CHECK-NOT: ptxcc.quot
; CHECK: %q = udiv i64 %i0, %d2
define void @other_signedness(i64 %m, i64 %n1, ptr %out) {
entry:
  %m.addr = alloca i64
  %iv = alloca i64
  %lb = alloca i64
  %ub = alloca i64
  %st = alloca i64
  %last = alloca i32
  store i64 %m, ptr %m.addr
  store i64 0, ptr %lb
  store i64 %n1, ptr %ub
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
  %d0 = sub nsw i64 %m0, 0
  %d1 = sdiv i64 %d0, 1
  %d2 = mul nsw i64 1, %d1
  %q = udiv i64 %i0, %d2
  %i1 = load i64, ptr %iv
  %i2 = load i64, ptr %iv
  %m1 = load i64, ptr %m.addr
  %q2 = udiv i64 %i2, %m1
  %qm = mul nsw i64 %q2, %m1
  %r = sub nsw i64 %i1, %qm
  %x = add nsw i64 %r, %qm
  %p = getelementptr i64, ptr %out, i64 %x
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

declare void @__kmpc_for_static_init_8(ptr, i32, i32, ptr, ptr, ptr, ptr, i64, i64)
declare void @__kmpc_for_static_init_8u(ptr, i32, i32, ptr, ptr, ptr, ptr, i64, i64)
