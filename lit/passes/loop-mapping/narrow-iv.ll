; A cyclic thread loop over a 64-bit counter gets a 32-bit copy, entered when the counter's
; start and the bound fit in an int with room for one more step (ub <= INT_MAX - ntid.x): the
; copy counts in an i32 slot, compares in i32 and increments with nsw (nuw too for clang's
; unsigned loops), and gives .omp.iv its 64-bit value back on the way out. The 64-bit loop
; stays for larger bounds, without unrolling; the copy takes the unroll count. Loops whose
; values are used after them, or whose bound is written inside them, are not copied; neither
; are 32-bit loops.
; RUN: ptxcc-opt --passes=loop-mapping %s | FileCheck %s
; RUN: ptxcc-opt --passes=loop-mapping %s | opt-19 -passes=verify -disable-output
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define void @signed_le(
; CHECK: %ptxcc.iv32 = alloca i32
; CHECK: %ptxcc.ub32 = alloca i32
; CHECK: store i64 %l, ptr %iv
; CHECK-NEXT: br label %ptxcc.fits
; CHECK: ptxcc.fits:
; CHECK-NEXT: %ptxcc.lb64 = load i64, ptr %iv
; CHECK-NEXT: %ptxcc.ub64 = load i64, ptr %ub
; CHECK: %[[N:[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
; CHECK-NEXT: %[[N64:[0-9]+]] = zext i32 %[[N]] to i64
; CHECK-NEXT: %[[ROOM:[0-9]+]] = sub i64 2147483647, %[[N64]]
; CHECK-NEXT: icmp sge i64 %ptxcc.lb64, -2147483648
; CHECK-NEXT: icmp sle i64 %ptxcc.lb64, 2147483647
; CHECK: icmp sge i64 %ptxcc.ub64, -2147483648
; CHECK-NEXT: icmp sle i64 %ptxcc.ub64, %[[ROOM]]
; CHECK: br i1 %ptxcc.fits32, label %ptxcc.loop32, label %cond
; CHECK: ptxcc.loop32:
; CHECK-NEXT: %[[LB:[0-9]+]] = trunc i64 %ptxcc.lb64 to i32
; CHECK-NEXT: store i32 %[[LB]], ptr %ptxcc.iv32
; CHECK-NEXT: %[[UB:[0-9]+]] = trunc i64 %ptxcc.ub64 to i32
; CHECK-NEXT: store i32 %[[UB]], ptr %ptxcc.ub32
; CHECK-NEXT: br label %cond.i32
; The 64-bit loop is unchanged but for its hint.
; CHECK: cond:
; CHECK: icmp sle i64 %c, %u
; CHECK: %next = add nsw i64 %i, %ptxcc.step
; CHECK: br label %cond, !llvm.loop ![[SLOW:[0-9]+]]
; CHECK: ptxcc.iv64:
; CHECK-NEXT: %[[LAST:[0-9]+]] = load i32, ptr %ptxcc.iv32
; CHECK-NEXT: %[[LAST64:[0-9]+]] = sext i32 %[[LAST]] to i64
; CHECK-NEXT: store i64 %[[LAST64]], ptr %iv
; CHECK-NEXT: br label %exit
; CHECK: cond.i32:
; CHECK: %[[IN:[0-9]+]] = icmp sle i32 %[[I:[0-9]+]], %[[U:[0-9]+]]
; CHECK-NEXT: br i1 %[[IN]], label %latch.i32, label %ptxcc.iv64
; CHECK: latch.i32:
; CHECK: %[[I2:[0-9]+]] = load i32, ptr %ptxcc.iv32
; CHECK-NEXT: %[[I64:[0-9]+]] = sext i32 %[[I2]] to i64
; CHECK-NEXT: getelementptr i64, ptr %out, i64 %[[I64]]
; CHECK: %ptxcc.next32 = add nsw i32
; CHECK: store i32 %{{[0-9]+}}, ptr %ptxcc.iv32
; CHECK-NEXT: br label %cond.i32, !llvm.loop ![[FAST:[0-9]+]]
; CHECK: exit:
; CHECK-NEXT: ret void
define void @signed_le(ptr %out) {
entry:
  %lb = alloca i64
  %ub = alloca i64
  %st = alloca i64
  %last = alloca i32
  %iv = alloca i64
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
  %p = getelementptr i64, ptr %out, i64 %i
  store i64 %i, ptr %p
  %next = add nsw i64 %i, 1
  store i64 %next, ptr %iv
  br label %cond
exit:
  ret void
}


; clang's unsigned form compares `iv < ub + 1`: both in [0, INT_MAX - ntid.x], nuw nsw in i32.
; CHECK-LABEL: define void @unsigned_lt(
; CHECK: ptxcc.fits:
; CHECK: icmp ule i64 %ptxcc.lb64, 2147483647
; CHECK-NEXT: icmp ule i64 %ptxcc.ub64,
; CHECK: cond.i32:
; CHECK: %[[U1:[0-9]+]] = add nuw nsw i32 %{{[0-9]+}}, 1
; CHECK-NEXT: icmp ult i32 %{{[0-9]+}}, %[[U1]]
; CHECK: %ptxcc.next32 = add nuw nsw i32
define void @unsigned_lt(ptr %out) {
entry:
  %lb = alloca i64
  %ub = alloca i64
  %st = alloca i64
  %last = alloca i32
  %iv = alloca i64
  call void @__kmpc_for_static_init_8u(ptr null, i32 0, i32 34, ptr %last, ptr %lb, ptr %ub, ptr %st, i64 1, i64 1)
  %l = load i64, ptr %lb
  store i64 %l, ptr %iv
  br label %cond
cond:
  %c = load i64, ptr %iv
  %u = load i64, ptr %ub
  %u1 = add i64 %u, 1
  %in = icmp ult i64 %c, %u1
  br i1 %in, label %latch, label %exit
latch:
  %i = load i64, ptr %iv
  %p = getelementptr i64, ptr %out, i64 %i
  store i64 %i, ptr %p
  %next = add nuw i64 %i, 1
  store i64 %next, ptr %iv
  br label %cond
exit:
  ret void
}


; CHECK-LABEL: define i64 @used_after(
; CHECK-NOT: ptxcc.fits
; CHECK: ret i64 %c
define i64 @used_after(ptr %out) {
entry:
  %lb = alloca i64
  %ub = alloca i64
  %st = alloca i64
  %last = alloca i32
  %iv = alloca i64
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
  %next = add nsw i64 %i, 1
  store i64 %next, ptr %iv
  br label %cond
exit:
  ret i64 %c
}


; CHECK-LABEL: define void @bound_written(
; CHECK-NOT: ptxcc.fits
; CHECK: ret void
define void @bound_written(ptr %out) {
entry:
  %lb = alloca i64
  %ub = alloca i64
  %st = alloca i64
  %last = alloca i32
  %iv = alloca i64
  %bound = alloca i64
  call void @__kmpc_for_static_init_8(ptr null, i32 0, i32 34, ptr %last, ptr %lb, ptr %ub, ptr %st, i64 1, i64 1)
  %l = load i64, ptr %lb
  store i64 %l, ptr %iv
  %u0 = load i64, ptr %ub
  store i64 %u0, ptr %bound
  br label %cond
cond:
  %c = load i64, ptr %iv
  %u = load i64, ptr %bound
  %in = icmp sle i64 %c, %u
  br i1 %in, label %latch, label %exit
latch:
  %i = load i64, ptr %iv
  store i64 %i, ptr %bound
  %next = add nsw i64 %i, 1
  store i64 %next, ptr %iv
  br label %cond
exit:
  ret void
}


; The counter's address escapes: something else could write it.
; CHECK-LABEL: define void @counter_escapes(
; CHECK-NOT: ptxcc.fits
; CHECK: ret void
define void @counter_escapes(ptr %out) {
entry:
  %lb = alloca i64
  %ub = alloca i64
  %st = alloca i64
  %last = alloca i32
  %iv = alloca i64
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
  call void @observe(ptr %iv)
  %i = load i64, ptr %iv
  %next = add nsw i64 %i, 1
  store i64 %next, ptr %iv
  br label %cond
exit:
  ret void
}
declare void @observe(ptr)

; CHECK-LABEL: define void @int_loop(
; CHECK-NOT: ptxcc.fits
; CHECK: ret void
define void @int_loop(ptr %out) {
entry:
  %lb = alloca i32
  %ub = alloca i32
  %st = alloca i32
  %last = alloca i32
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
  %next = add nsw i32 %i, 1
  store i32 %next, ptr %iv
  br label %cond
exit:
  ret void
}

; The loop IDs: the 64-bit loop's asks for no unrolling, the copy's for 4.
; CHECK-DAG: ![[SLOW]] = distinct !{![[SLOW]], ![[PROGRESS:[0-9]+]], ![[OFF:[0-9]+]]}
; CHECK-DAG: ![[OFF]] = !{!"llvm.loop.unroll.disable"}
; CHECK-DAG: ![[FAST]] = distinct !{![[FAST]], ![[PROGRESS]], ![[FOUR:[0-9]+]]}
; CHECK-DAG: ![[FOUR]] = !{!"llvm.loop.unroll.count", i32 4}
declare void @__kmpc_for_static_init_4(ptr, i32, i32, ptr, ptr, ptr, ptr, i32, i32)

declare void @__kmpc_for_static_init_8(ptr, i32, i32, ptr, ptr, ptr, ptr, i64, i64)
declare void @__kmpc_for_static_init_8u(ptr, i32, i32, ptr, ptr, ptr, ptr, i64, i64)
