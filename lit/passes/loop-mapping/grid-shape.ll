; A grid-stride collapse loop whose last-iteration flags nothing reads takes its indices from
; a grid of its shape when the grid covers it (loop_mapping/grid_shape.rs): before the loop,
; %ptxcc.shaped tests the cover (first counter 0, x lanes >= K, nctaid.y * K >= J*K,
; nctaid.z * J*K > last) and %ptxcc.known stores ctaid.z, ctaid.y * K + gx, ctaid.y and gx as
; the running quotients and remainders where %ptxcc.divide divides, and goes straight to the
; loop (%ptxcc.more.grid: no second step); a thread without an iteration starts past the last
; counter, and the latch's step leaves the loop. Every other block-number read in the functions the kernel reaches becomes
; the linear one (ctaid.x + nctaid.x * (ctaid.y + nctaid.y * ctaid.z), and the product of
; the nctaid's), so the grid-stride path is right on any grid. !ptxcc.grid_shapes names the
; kernel, its levels and its constant divisors (0: not constants) for the launch. A loop whose
; distribute flag is read (lastprivate) keeps the linear grid: no shape, its kernel's reads
; unchanged.
; RUN: ptxcc-opt --passes=loop-mapping %s | FileCheck %s

; CHECK-LABEL: define void @kern(
; CHECK: %[[NX:[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
; CHECK-NEXT: %[[NY:[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.y()
; CHECK-NEXT: %[[NZ:[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.z()
; CHECK-NEXT: %[[X:[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
; CHECK-NEXT: %[[Y:[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
; CHECK-NEXT: %[[Z:[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.z()
; CHECK-NEXT: %[[YZ:[0-9]+]] = mul i32 %[[NY]], %[[Z]]
; CHECK-NEXT: %[[PLANE:[0-9]+]] = add i32 %[[Y]], %[[YZ]]
; CHECK-NEXT: %[[ROWS:[0-9]+]] = mul i32 %[[NX]], %[[PLANE]]
; CHECK-NEXT: %ptxcc.block = add i32 %[[X]], %[[ROWS]]
; CHECK: %ptxcc.blocks = mul i32
; CHECK-NEXT: %bn = add i32 %ptxcc.block, %ptxcc.blocks

; CHECK-LABEL: define internal void @team.region(
; CHECK: %ptxcc.divisor = select
; CHECK: %ptxcc.divisor.inner = select
; CHECK-NEXT: %[[TID:[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !ptxcc.grid.shape
; CHECK: %[[CY:[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y(), !ptxcc.grid.shape
; CHECK-NEXT: %[[CY64:[0-9]+]] = zext i32 %[[CY]] to i64
; CHECK: %[[CZ:[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.z(), !ptxcc.grid.shape
; CHECK-NEXT: %[[CZ64:[0-9]+]] = zext i32 %[[CZ]] to i64
; CHECK: %[[GX:[0-9]+]] = add nuw i64 %{{[0-9]+}}, %{{[0-9]+}}
; CHECK: icmp eq i64 %ptxcc.lb0, 0
; CHECK: %[[YK:[0-9]+]] = mul nuw i64 %[[CY64]], %ptxcc.divisor.inner
; CHECK-NEXT: %[[R1:[0-9]+]] = add nuw i64 %[[YK]], %[[GX]]
; CHECK-NEXT: %[[ZJK:[0-9]+]] = mul nuw i64 %[[CZ64]], %ptxcc.divisor
; CHECK-NEXT: %[[CTR:[0-9]+]] = add nuw i64 %[[ZJK]], %[[R1]]
; CHECK: %ptxcc.shaped = and i1
; CHECK-NEXT: %[[PAST:[0-9]+]] = add i64 %ptxcc.ub0, 1
; CHECK-NEXT: %ptxcc.shaped.start = select i1 %{{[0-9]+}}, i64 %[[CTR]], i64 %[[PAST]]
; CHECK-NEXT: %ptxcc.shaped.step = sub i64 %[[PAST]], %ptxcc.shaped.start
; CHECK-NEXT: br i1 %ptxcc.shaped, label %ptxcc.known, label %ptxcc.divide
; CHECK: ptxcc.known:
; CHECK-NEXT: store i64 %ptxcc.shaped.start, ptr %iv
; CHECK-NEXT: store i64 %[[CZ64]], ptr %ptxcc.quot
; CHECK-NEXT: store i64 %[[R1]], ptr %ptxcc.rem
; CHECK-NEXT: store i64 %[[CY64]], ptr %ptxcc.quot.inner
; CHECK-NEXT: store i64 %[[GX]], ptr %ptxcc.rem.inner
; CHECK-NEXT: br label %ptxcc.steps.join
; CHECK: ptxcc.divide:
; CHECK: udiv i64 %{{[0-9]+}}, %ptxcc.divisor
; CHECK: udiv i64 %{{[0-9]+}}, %ptxcc.divisor.inner
; CHECK: br label %ptxcc.decide
; CHECK: ptxcc.decide:
; CHECK: br i1 %ptxcc.more, label %ptxcc.steps, label %ptxcc.steps.join
; CHECK: ptxcc.steps.join:
; CHECK-NEXT: %ptxcc.more.grid = phi i1 [ false, %ptxcc.decide ], [ true, %ptxcc.steps ], [ false, %ptxcc.known ]
; The grid-stride step, of the linear grid, unless shaped.
; CHECK: latch:
; CHECK: %ptxcc.blocks{{[0-9]*}} = mul i32
; CHECK: %[[STEP:[0-9]+]] = select i1 %ptxcc.shaped, i64 %ptxcc.shaped.step, i64 %ptxcc.step
; CHECK-NEXT: %next = add nsw i64 %ii, %[[STEP]]

; Constant extents are recorded for the launch (the trip count clang folded says nothing).
; CHECK-LABEL: define internal void @team_c.region(
; CHECK: br i1 %ptxcc.shaped, label %ptxcc.known, label %ptxcc.divide

; CHECK-LABEL: define void @kern_last(
; CHECK-NEXT: entry:
; CHECK-NEXT: %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
; CHECK-NEXT: %n = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
; CHECK-LABEL: define internal void @team_last.region(
; CHECK-NOT: ptxcc.shaped
; CHECK-NOT: ptxcc.block
; CHECK: ret void

; CHECK: !ptxcc.grid_shapes = !{![[S1:[0-9]+]], ![[S2:[0-9]+]]}
; CHECK: ![[S1]] = !{!"kern", i32 2, i64 0, i64 0}
; CHECK: ![[S2]] = !{!"kern_c", i32 2, i64 120, i64 720}
target triple = "nvptx64-nvidia-cuda"

define void @kern(i64 %ub0, i64 %nj, i64 %nk, ptr %out) {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %n = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %bn = add i32 %b, %n
  store i32 %bn, ptr %out
  call void @team(i64 %ub0, i64 %nj, i64 %nk, ptr %out)
  ret void
}
define internal void @team(i64 %ub0, i64 %nj, i64 %nk, ptr %out) "ptxcc-threads"="team" {
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
  call void @team.region(ptr null, ptr null, i64 %plb, i64 %pub, i64 %nj, i64 %nk, ptr %out)
  %i2 = load i64, ptr %iv
  %s = load i64, ptr %st
  %next = add nsw i64 %i2, %s
  store i64 %next, ptr %iv
  br label %cond
exit:
  ret void
}
define internal void @team.region(ptr %0, ptr %1, i64 %prev.lb, i64 %prev.ub, i64 %nj, i64 %nk, ptr %out) {
entry:
  %nj.addr = alloca i64
  %nk.addr = alloca i64
  %iv = alloca i64
  %lb = alloca i64
  %ub = alloca i64
  %st = alloca i64
  %last = alloca i32
  store i64 %nj, ptr %nj.addr
  store i64 %nk, ptr %nk.addr
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
  %a0 = load i64, ptr %nj.addr
  %b0 = load i64, ptr %nk.addr
  %jk0 = mul nsw i64 %a0, %b0
  %i = sdiv i64 %i0, %jk0
  %i1 = load i64, ptr %iv
  %a1 = load i64, ptr %nj.addr
  %b1 = load i64, ptr %nk.addr
  %jk1 = mul nsw i64 %a1, %b1
  %ijk = mul nsw i64 %i, %jk1
  %r = sub nsw i64 %i1, %ijk
  %b2 = load i64, ptr %nk.addr
  %k2 = add i64 %b2, 0
  %j = sdiv i64 %r, %k2
  %jk = mul nsw i64 %j, %k2
  %kk = sub nsw i64 %r, %jk
  %x = add nsw i64 %i, %j
  %y = add nsw i64 %x, %kk
  %p = getelementptr i64, ptr %out, i64 %y
  store i64 %j, ptr %p
  br label %latch
latch:
  %ii = load i64, ptr %iv
  %next = add nsw i64 %ii, 1
  store i64 %next, ptr %iv
  br label %cond
exit:
  ret void
}
define void @kern_c(i64 %ub0, i64 %nj, i64 %nk, ptr %out) {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %n = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %bn = add i32 %b, %n
  store i32 %bn, ptr %out
  call void @team_c(i64 %ub0, i64 %nj, i64 %nk, ptr %out)
  ret void
}
define internal void @team_c(i64 %ub0, i64 %nj, i64 %nk, ptr %out) "ptxcc-threads"="team" {
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
  call void @team_c.region(ptr null, ptr null, i64 %plb, i64 %pub, i64 %nj, i64 %nk, ptr %out)
  %i2 = load i64, ptr %iv
  %s = load i64, ptr %st
  %next = add nsw i64 %i2, %s
  store i64 %next, ptr %iv
  br label %cond
exit:
  ret void
}
define internal void @team_c.region(ptr %0, ptr %1, i64 %prev.lb, i64 %prev.ub, i64 %nj, i64 %nk, ptr %out) {
entry:
  %nj.addr = alloca i64
  %nk.addr = alloca i64
  %iv = alloca i64
  %lb = alloca i64
  %ub = alloca i64
  %st = alloca i64
  %last = alloca i32
  store i64 %nj, ptr %nj.addr
  store i64 %nk, ptr %nk.addr
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
  %a0 = load i64, ptr %nj.addr
  %b0 = load i64, ptr %nk.addr
  %jk0 = add i64 720, 0
  %i = sdiv i64 %i0, %jk0
  %i1 = load i64, ptr %iv
  %a1 = load i64, ptr %nj.addr
  %b1 = load i64, ptr %nk.addr
  %jk1 = add i64 720, 0
  %ijk = mul nsw i64 %i, %jk1
  %r = sub nsw i64 %i1, %ijk
  %b2 = load i64, ptr %nk.addr
  %k2 = add i64 120, 0
  %j = sdiv i64 %r, %k2
  %jk = mul nsw i64 %j, %k2
  %kk = sub nsw i64 %r, %jk
  %x = add nsw i64 %i, %j
  %y = add nsw i64 %x, %kk
  %p = getelementptr i64, ptr %out, i64 %y
  store i64 %j, ptr %p
  br label %latch
latch:
  %ii = load i64, ptr %iv
  %next = add nsw i64 %ii, 1
  store i64 %next, ptr %iv
  br label %cond
exit:
  ret void
}
define void @kern_last(i64 %ub0, i64 %nj, i64 %nk, ptr %out) {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %n = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %bn = add i32 %b, %n
  store i32 %bn, ptr %out
  call void @team_last(i64 %ub0, i64 %nj, i64 %nk, ptr %out)
  ret void
}
define internal void @team_last(i64 %ub0, i64 %nj, i64 %nk, ptr %out) "ptxcc-threads"="team" {
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
  call void @team_last.region(ptr null, ptr null, i64 %plb, i64 %pub, i64 %nj, i64 %nk, ptr %out)
  %i2 = load i64, ptr %iv
  %s = load i64, ptr %st
  %next = add nsw i64 %i2, %s
  store i64 %next, ptr %iv
  br label %cond
exit:
  %lp = load i32, ptr %last
  store i32 %lp, ptr %out
  ret void
}
define internal void @team_last.region(ptr %0, ptr %1, i64 %prev.lb, i64 %prev.ub, i64 %nj, i64 %nk, ptr %out) {
entry:
  %nj.addr = alloca i64
  %nk.addr = alloca i64
  %iv = alloca i64
  %lb = alloca i64
  %ub = alloca i64
  %st = alloca i64
  %last = alloca i32
  store i64 %nj, ptr %nj.addr
  store i64 %nk, ptr %nk.addr
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
  %a0 = load i64, ptr %nj.addr
  %b0 = load i64, ptr %nk.addr
  %jk0 = mul nsw i64 %a0, %b0
  %i = sdiv i64 %i0, %jk0
  %i1 = load i64, ptr %iv
  %a1 = load i64, ptr %nj.addr
  %b1 = load i64, ptr %nk.addr
  %jk1 = mul nsw i64 %a1, %b1
  %ijk = mul nsw i64 %i, %jk1
  %r = sub nsw i64 %i1, %ijk
  %b2 = load i64, ptr %nk.addr
  %k2 = add i64 %b2, 0
  %j = sdiv i64 %r, %k2
  %jk = mul nsw i64 %j, %k2
  %kk = sub nsw i64 %r, %jk
  %x = add nsw i64 %i, %j
  %y = add nsw i64 %x, %kk
  %p = getelementptr i64, ptr %out, i64 %y
  store i64 %j, ptr %p
  br label %latch
latch:
  %ii = load i64, ptr %iv
  %next = add nsw i64 %ii, 1
  store i64 %next, ptr %iv
  br label %cond
exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare void @__kmpc_for_static_init_8(ptr, i32, i32, ptr, ptr, ptr, ptr, i64, i64)

!ptxcc.kernels = !{!0, !1, !2}
!0 = !{!"kern", i32 0, !"t.c:1:1"}
!1 = !{!"kern_c", i32 0, !"t.c:2:1"}
!2 = !{!"kern_last", i32 0, !"t.c:3:1"}
