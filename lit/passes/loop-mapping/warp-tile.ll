; A cyclic collapse(2) loop whose accesses read a row-invariant element (a[i*m]) and a
; column-shared one (b[j]) numbers its counters in warp tiles of 16 columns x 2 rows (warp_tile.rs):
; the running quotient divides by the band (2 rows of m) when the run-time extents allow it (m a
; multiple of 16, the loop whole bands), and each division reads the row, each remainder the column,
; of the counter's place in its band. A loop whose accesses all move along j (a stencil) keeps
; clang's order, and so does one that uses its counter other than through the division.
; RUN: ptxcc-opt --passes=loop-mapping %s | FileCheck %s
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define void @product(
; CHECK: %ptxcc.divisor = select i1 %{{[0-9]+}}, i64 %{{[0-9]+}}, i64 1
; CHECK-NEXT: %ptxcc.band = mul i64 %ptxcc.divisor, 2
; CHECK-NEXT: %[[NOWRAP:[0-9]+]] = icmp ule i64 %ptxcc.divisor, 9223372036854775807
; CHECK-NEXT: %[[C16:[0-9]+]] = and i64 %ptxcc.divisor, 15
; CHECK-NEXT: %[[COLS:[0-9]+]] = icmp eq i64 %[[C16]], 0
; CHECK-NEXT: %[[F:[0-9]+]] = urem i64 %ptxcc.lb0, %ptxcc.band
; CHECK-NEXT: %[[FIRST:[0-9]+]] = icmp eq i64 %[[F]], 0
; CHECK-NEXT: %[[D:[0-9]+]] = sub i64 %ptxcc.ub0, %ptxcc.lb0
; CHECK-NEXT: %[[N:[0-9]+]] = add i64 %[[D]], 1
; CHECK-NEXT: %[[W:[0-9]+]] = urem i64 %[[N]], %ptxcc.band
; CHECK-NEXT: %[[WHOLE:[0-9]+]] = icmp eq i64 %[[W]], 0
; CHECK-NEXT: %[[A1:[0-9]+]] = and i1 %[[NOWRAP]], %[[COLS]]
; CHECK-NEXT: %[[A2:[0-9]+]] = and i1 %[[A1]], %[[FIRST]]
; CHECK-NEXT: %ptxcc.tile = and i1 %[[A2]], %[[WHOLE]]
; CHECK-NEXT: %ptxcc.tile.divisor = select i1 %ptxcc.tile, i64 %ptxcc.band, i64 %ptxcc.divisor
; CHECK: udiv i64 %{{[0-9]+}}, %ptxcc.tile.divisor
; CHECK: ptxcc.steps:
; CHECK-NEXT: udiv i64 %ptxcc.step0, %ptxcc.tile.divisor
; CHECK: body:
; CHECK: %ptxcc.q = load i64, ptr %ptxcc.quot
; CHECK-NEXT: %ptxcc.r = load i64, ptr %ptxcc.rem
; CHECK-NEXT: %[[LANE:[0-9]+]] = and i64 %ptxcc.r, 31
; CHECK-NEXT: %[[DOWN:[0-9]+]] = lshr i64 %[[LANE]], 4
; CHECK-NEXT: %[[TOP:[0-9]+]] = mul i64 %ptxcc.q, 2
; CHECK-NEXT: %[[ROW:[0-9]+]] = add i64 %[[TOP]], %[[DOWN]]
; CHECK-NEXT: %ptxcc.row = select i1 %ptxcc.tile, i64 %[[ROW]], i64 %ptxcc.q
; CHECK-NEXT: store i64 %ptxcc.row, ptr %i.slot
; The remainder's division is a row too; clang's iv - q * m, the column.
; CHECK: %qm = mul nsw i64 %ptxcc.row{{[0-9]+}}, %m1
; CHECK-NEXT: %ptxcc.r[[R:[0-9]+]] = load i64, ptr %ptxcc.rem
; CHECK-NEXT: %[[G:[0-9]+]] = lshr i64 %ptxcc.r[[R]], 5
; CHECK-NEXT: %[[GC:[0-9]+]] = shl i64 %[[G]], 4
; CHECK-NEXT: %[[IN:[0-9]+]] = and i64 %ptxcc.r[[R]], 15
; CHECK-NEXT: %[[COL:[0-9]+]] = or i64 %[[GC]], %[[IN]]
; CHECK-NEXT: %ptxcc.col = select i1 %ptxcc.tile, i64 %[[COL]], i64 %ptxcc.r[[R]]
; CHECK-NEXT: store i64 %ptxcc.col, ptr %j.slot
; CHECK: latch:
; CHECK: %ptxcc.carry = icmp uge i64 %{{[0-9]+}}, %ptxcc.tile.divisor
define void @product(i64 %m, i64 %n1, ptr %a, ptr %b, ptr %c) {
entry:
  %m.addr = alloca i64
  %i.slot = alloca i64
  %j.slot = alloca i64
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
  %c0 = load i64, ptr %iv
  %u = load i64, ptr %ub
  %in = icmp sle i64 %c0, %u
  br i1 %in, label %body, label %exit
body:
  %i0 = load i64, ptr %iv
  %m0 = load i64, ptr %m.addr
  %q = sdiv i64 %i0, %m0
  store i64 %q, ptr %i.slot
  %i1 = load i64, ptr %iv
  %i2 = load i64, ptr %iv
  %m1 = load i64, ptr %m.addr
  %q2 = sdiv i64 %i2, %m1
  %qm = mul nsw i64 %q2, %m1
  %r = sub nsw i64 %i1, %qm
  store i64 %r, ptr %j.slot
  %ii = load i64, ptr %i.slot
  %jj = load i64, ptr %j.slot
  %m2 = load i64, ptr %m.addr
  %row = mul nsw i64 %ii, %m2
  %pa = getelementptr inbounds double, ptr %a, i64 %row
  %va = load double, ptr %pa
  %pb = getelementptr inbounds double, ptr %b, i64 %jj
  %vb = load double, ptr %pb
  %s = fmul double %va, %vb
  %ci = add nsw i64 %row, %jj
  %pc = getelementptr inbounds double, ptr %c, i64 %ci
  store double %s, ptr %pc
  br label %latch
latch:
  %i = load i64, ptr %iv
  %next = add nsw i64 %i, 1
  store i64 %next, ptr %iv
  br label %cond
exit:
  ret void
}

; Every access moves along j in every row (c[i][j] = a[i][j] + a[i+1][j]): each tile touches as
; many sectors as the row, which stays.
; CHECK-LABEL: define void @stencil(
; CHECK-NOT: ptxcc.tile
; CHECK: %ptxcc.divisor = select
; CHECK-NOT: ptxcc.tile
; CHECK: udiv i64 %{{[0-9]+}}, %ptxcc.divisor
; CHECK-NOT: ptxcc.tile
; CHECK-LABEL: ret void
define void @stencil(i64 %m, i64 %n1, ptr %a, ptr %c) {
entry:
  %m.addr = alloca i64
  %i.slot = alloca i64
  %j.slot = alloca i64
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
  %c0 = load i64, ptr %iv
  %u = load i64, ptr %ub
  %in = icmp sle i64 %c0, %u
  br i1 %in, label %body, label %exit
body:
  %i0 = load i64, ptr %iv
  %m0 = load i64, ptr %m.addr
  %q = sdiv i64 %i0, %m0
  store i64 %q, ptr %i.slot
  %i1 = load i64, ptr %iv
  %qm = mul nsw i64 %q, %m0
  %r = sub nsw i64 %i1, %qm
  store i64 %r, ptr %j.slot
  %ii = load i64, ptr %i.slot
  %jj = load i64, ptr %j.slot
  %m2 = load i64, ptr %m.addr
  %row = mul nsw i64 %ii, %m2
  %x = add nsw i64 %row, %jj
  %pa = getelementptr inbounds double, ptr %a, i64 %x
  %va = load double, ptr %pa
  %x1 = add nsw i64 %x, %m2
  %pa1 = getelementptr inbounds double, ptr %a, i64 %x1
  %va1 = load double, ptr %pa1
  %s = fadd double %va, %va1
  %pc = getelementptr inbounds double, ptr %c, i64 %x
  store double %s, ptr %pc
  br label %latch
latch:
  %i = load i64, ptr %iv
  %next = add nsw i64 %i, 1
  store i64 %next, ptr %iv
  br label %cond
exit:
  ret void
}

; The product again, with the counter itself also stored (out[iv]): the row and the column no
; longer say everything the iteration does, so the order stays clang's.
; CHECK-LABEL: define void @counter_used(
; CHECK-NOT: ptxcc.tile
; CHECK-LABEL: ret void
define void @counter_used(i64 %m, i64 %n1, ptr %a, ptr %b, ptr %out) {
entry:
  %m.addr = alloca i64
  %i.slot = alloca i64
  %j.slot = alloca i64
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
  %c0 = load i64, ptr %iv
  %u = load i64, ptr %ub
  %in = icmp sle i64 %c0, %u
  br i1 %in, label %body, label %exit
body:
  %i0 = load i64, ptr %iv
  %m0 = load i64, ptr %m.addr
  %q = sdiv i64 %i0, %m0
  store i64 %q, ptr %i.slot
  %i1 = load i64, ptr %iv
  %qm = mul nsw i64 %q, %m0
  %r = sub nsw i64 %i1, %qm
  store i64 %r, ptr %j.slot
  %ii = load i64, ptr %i.slot
  %jj = load i64, ptr %j.slot
  %row = mul nsw i64 %ii, %m0
  %pa = getelementptr inbounds double, ptr %a, i64 %row
  %va = load double, ptr %pa
  %pb = getelementptr inbounds double, ptr %b, i64 %jj
  %vb = load double, ptr %pb
  %s = fmul double %va, %vb
  %iv.again = load i64, ptr %iv
  %po = getelementptr inbounds double, ptr %out, i64 %iv.again
  store double %s, ptr %po
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
