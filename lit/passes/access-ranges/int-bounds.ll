; access-ranges: a collapse(3) loop over `int` bounds (i, j, k from 1 to n-2, m-2, l-2) as
; clang 19 leaves it after sroa,instcombine, which the analysis sees:
;  - the bounds arrive as `and i64 %m, 2147483647`: instcombine narrowed the `zext (trunc m)`
;    mask because the kernel checked m > 2. The mask is kept, as the zero-extended low 31 bits
;    of the argument (table version 3's masked factor), not assumed away;
;  - the trip counts are `ashr (add nsw (shl m, 32), -2 << 32), 32` (sext of the int m - 2), and
;    the divisor of the outer index `ashr (shl ((m + 2^32 - 2) * (l + 2^32 - 2)), 32), 32`,
;    whose 64-bit product overflows an i64 coefficient unless it is narrowed as it goes;
;  - the inner index is `trunc (it - (i*(m+2^32-2)*(l+2^32-2) + j*(l+2^32-2)))` to i32;
;  - the subscript of a[... + k - 1] is an `add i32` without nsw (reassociated).
; Each narrow value becomes a guard the runtime checks (it must stay in the int range), and
; every access is bounded by planes of i, as for `long` bounds (collapse3.ll).
; RUN: ptxcc-opt --multi-device --passes=split-range,access-ranges %s | FileCheck %s
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
%struct.ident_t = type { i32, i32, i32, i32, ptr }
@.str = private constant [13 x i8] c";g.c;k;3;1;;\00"
@loc = private constant %struct.ident_t { i32 0, i32 2, i32 0, i32 12, ptr @.str }

; Version 3 (a masked argument: 3 << 40 | 31 << 20 | 1 = 3298567389185 is argument 1's low 31 bits).
; CHECK: @__ptxcc_access_intbounds = internal constant [{{[0-9]+}} x i64] [i64 3, i64 5, i64 2,
; CHECK-SAME: i64 3298567389185
; Among the guards (after the accesses): a's subscript, an `add i32` without nsw, 32 bits wide,
; 5 terms, the first v1*arg2*arg3 (2 << 40 | 1, then the two masked arguments).
; CHECK-SAME: i64 32, i64 5, i64 1, i64 3, i64 2199023255553, i64 3298567389185, i64 3298567389186,
; casts (below): two guards, i + 1 and i, 32 bits each.
; CHECK: @__ptxcc_access_casts = {{.*}}, i64 2, i64 32, i64 2, i64 1, i64 0, i64 1, i64 1, i64 2199023255552, i64 32, i64 1, i64 1, i64 1, i64 2199023255552]
; The divisor (m-2)*(l-2) over the masked m and l, the middle and inner indices as quotient
; and remainder of the rest; c written and a read at the same place, no whole section.
; CHECK: access ranges of kernel 'intbounds': argument 5: read [8*v1*arg2*arg3 + 8*v3*arg3 + 8*v4 + 8*arg2*arg3 + 8*arg3, 8*v1*arg2*arg3 + 8*v3*arg3 + 8*v4 + 8*arg2*arg3 + 8*arg3 + 8); argument 4: written [8*v1*arg2*arg3 + 8*v3*arg3 + 8*v4 + 8*arg2*arg3 + 8*arg3 + 8, 8*v1*arg2*arg3 + 8*v3*arg3 + 8*v4 + 8*arg2*arg3 + 8*arg3 + 16) (v1 = i / (-2*arg2 + arg2*arg3 - 2*arg3 + 4), v2 = i % (-2*arg2 + arg2*arg3 - 2*arg3 + 4), v3 = v2 / (arg3 - 2), v4 = v2 % (arg3 - 2))

; A mask that is not the low bits of an argument (0xff00) is not followed: whole section.
; CHECK: access ranges of kernel 'othermask': argument 2: written: whole section

; `(long)(i + 1)` of an int index, its add without nsw: ashr (add (shl i, 32), 1 << 32), 32;
; and `(long)i * 2` as instcombine writes it: ashr (shl i, 32), 31.
; CHECK: access ranges of kernel 'casts': argument 2: read [8*i + 8, 8*i + 16); argument 3: written [16*i, 16*i + 8)

define void @intbounds(i64 %n, i64 %m.arg, i64 %l.arg, ptr %c, ptr %a) "ptxcc-threads"="team" {
entry:
  %lb = alloca i64
  %ub = alloca i64
  %st = alloca i64
  %last = alloca i32
  %m = and i64 %m.arg, 2147483647
  %l = and i64 %l.arg, 2147483647
  %nn = and i64 %n, 2147483647
  %m32 = trunc i64 %m to i32
  %l32 = trunc i64 %l to i32
  %ns = shl i64 %nn, 32
  %ns2 = add nsw i64 %ns, -8589934592
  %n2 = ashr exact i64 %ns2, 32
  %ms = shl i64 %m, 32
  %ms2 = add nsw i64 %ms, -8589934592
  %m2 = ashr exact i64 %ms2, 32
  %ls = shl i64 %l, 32
  %ls2 = add nsw i64 %ls, -8589934592
  %l2 = ashr exact i64 %ls2, 32
  %ml = mul nsw i64 %m2, %l2
  %nml = mul nsw i64 %n2, %ml
  %trip = add nsw i64 %nml, -1
  store i64 0, ptr %lb
  store i64 %trip, ptr %ub
  store i64 1, ptr %st
  store i32 0, ptr %last
  call void @__kmpc_for_static_init_8(ptr @loc, i32 0, i32 92, ptr %last, ptr %lb, ptr %ub, ptr %st, i64 1, i64 1)
  %l0 = load i64, ptr %lb
  %u0 = load i64, ptr %ub
  br label %cond
cond:
  %iv = phi i64 [ %l0, %entry ], [ %ivn, %body ]
  %in = icmp sle i64 %iv, %u0
  br i1 %in, label %body, label %exit
body:
  %ma = add i64 %m, 4294967294
  %la = add i64 %l, 4294967294
  %d64 = mul i64 %ma, %la
  %dsh = shl i64 %d64, 32
  %d = ashr exact i64 %dsh, 32
  %i = sdiv i64 %iv, %d
  %id = mul nsw i64 %i, %d
  %r = sub nsw i64 %iv, %id
  %j = sdiv i64 %r, %l2
  %iD = mul i64 %i, %d64
  %jL = mul i64 %j, %la
  %s = add i64 %iD, %jL
  %k64 = sub i64 %iv, %s
  %k0 = trunc i64 %k64 to i32
  %i0 = trunc i64 %i to i32
  %j0 = trunc i64 %j to i32
  %i1 = add i32 %i0, 1
  %j1 = add i32 %j0, 1
  %k1 = add i32 %k0, 1
  %row = mul nsw i32 %i1, %m32
  %rj = add nsw i32 %row, %j1
  %rjl = mul nsw i32 %rj, %l32
  %x = add nsw i32 %rjl, %k1
  %xs = sext i32 %x to i64
  %y = add i32 %rjl, %k0
  %ys = sext i32 %y to i64
  %p = getelementptr inbounds double, ptr %a, i64 %ys
  %v = load double, ptr %p
  %q = getelementptr inbounds double, ptr %c, i64 %xs
  store double %v, ptr %q
  %ivn = add nsw i64 %iv, 1
  br label %cond
exit:
  ret void
}

define void @othermask(i64 %n, ptr %c) "ptxcc-threads"="team" {
entry:
  %lb = alloca i64
  %ub = alloca i64
  %st = alloca i64
  %last = alloca i32
  %trip = add nsw i64 %n, -1
  store i64 0, ptr %lb
  store i64 %trip, ptr %ub
  store i64 1, ptr %st
  store i32 0, ptr %last
  call void @__kmpc_for_static_init_8(ptr @loc, i32 0, i32 92, ptr %last, ptr %lb, ptr %ub, ptr %st, i64 1, i64 1)
  %l0 = load i64, ptr %lb
  %u0 = load i64, ptr %ub
  br label %cond
cond:
  %iv = phi i64 [ %l0, %entry ], [ %ivn, %body ]
  %in = icmp sle i64 %iv, %u0
  br i1 %in, label %body, label %exit
body:
  %x = and i64 %iv, 65280
  %q = getelementptr inbounds double, ptr %c, i64 %x
  store double 1.0, ptr %q
  %ivn = add nsw i64 %iv, 1
  br label %cond
exit:
  ret void
}

define void @casts(i64 %n, ptr %a, ptr %c) "ptxcc-threads"="team" {
entry:
  %lb = alloca i64
  %ub = alloca i64
  %st = alloca i64
  %last = alloca i32
  %trip = add nsw i64 %n, -1
  store i64 0, ptr %lb
  store i64 %trip, ptr %ub
  store i64 1, ptr %st
  store i32 0, ptr %last
  call void @__kmpc_for_static_init_8(ptr @loc, i32 0, i32 92, ptr %last, ptr %lb, ptr %ub, ptr %st, i64 1, i64 1)
  %l0 = load i64, ptr %lb
  %u0 = load i64, ptr %ub
  br label %cond
cond:
  %iv = phi i64 [ %l0, %entry ], [ %ivn, %body ]
  %in = icmp sle i64 %iv, %u0
  br i1 %in, label %body, label %exit
body:
  %sh = shl i64 %iv, 32
  %p1 = add i64 %sh, 4294967296
  %x1 = ashr exact i64 %p1, 32
  %x2 = ashr exact i64 %sh, 31
  %p = getelementptr inbounds double, ptr %a, i64 %x1
  %v = load double, ptr %p
  %q = getelementptr inbounds double, ptr %c, i64 %x2
  store double %v, ptr %q
  %ivn = add nsw i64 %iv, 1
  br label %cond
exit:
  ret void
}

declare void @__kmpc_for_static_init_8(ptr, i32, i32, ptr, ptr, ptr, ptr, i64, i64)

!nvvm.annotations = !{!0, !2, !4}
!ptxcc.kernels = !{!1, !3, !5}
!0 = !{ptr @intbounds, !"kernel", i32 1}
!1 = !{!"intbounds", i32 0, !""}
!2 = !{ptr @othermask, !"kernel", i32 1}
!3 = !{!"othermask", i32 0, !""}
!4 = !{ptr @casts, !"kernel", i32 1}
!5 = !{!"casts", i32 0, !""}
