; access-ranges: a 2-D row stencil b[i*m + j] = a[(i-1)*m + j] + a[(i+1)*m + j], i = 1 .. m-2
; the distribute loop (iteration it = i - 1), j = 1 .. m-2 an inner loop. Its variable v1
; ranges over [1, m-2] (m: argument 1, an int); a part [lo, hi) reads rows lo .. hi+1 of a
; (the halo rows above and below) and writes rows lo+1 .. hi of b.
; RUN: ptxcc-opt --multi-device --passes=split-range,access-ranges %s | FileCheck %s
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
%struct.ident_t = type { i32, i32, i32, i32, ptr }
@.str = private constant [13 x i8] c";g.c;k;3;1;;\00"
@loc = private constant %struct.ident_t { i32 0, i32 2, i32 0, i32 12, ptr @.str }

; CHECK: @__ptxcc_access_rows = internal constant
; CHECK: access ranges of kernel 'rows': argument 3: read [8*arg1*i + 8*v1, 8*arg1*i + 8*v1 + 8); argument 3: read [16*arg1 + 8*arg1*i + 8*v1, 16*arg1 + 8*arg1*i + 8*v1 + 8); argument 2: written [8*arg1 + 8*arg1*i + 8*v1, 8*arg1 + 8*arg1*i + 8*v1 + 8) (v1 = 1 .. arg1 - 2)

define void @rows(i64 %m.arg, ptr %b, ptr %a) "ptxcc-threads"="team" {
entry:
  %lb = alloca i32
  %ub = alloca i32
  %st = alloca i32
  %last = alloca i32
  %m = trunc i64 %m.arg to i32
  %trip = sub nsw i32 %m, 3
  store i32 0, ptr %lb
  store i32 %trip, ptr %ub
  store i32 1, ptr %st
  store i32 0, ptr %last
  call void @__kmpc_for_static_init_4(ptr @loc, i32 0, i32 92, ptr %last, ptr %lb, ptr %ub, ptr %st, i32 1, i32 1)
  %l0 = load i32, ptr %lb
  %u0 = load i32, ptr %ub
  %mm1 = sub nsw i32 %m, 1
  br label %cond
cond:
  %iv = phi i32 [ %l0, %entry ], [ %ivn, %latch ]
  %in = icmp sle i32 %iv, %u0
  br i1 %in, label %rowpre, label %exit
rowpre:
  %i = add nsw i32 %iv, 1
  %im1 = sub nsw i32 %i, 1
  %ip1 = add nsw i32 %i, 1
  %r = mul nsw i32 %i, %m
  %rm = mul nsw i32 %im1, %m
  %rp = mul nsw i32 %ip1, %m
  br label %jcond
jcond:
  %j = phi i32 [ 1, %rowpre ], [ %jn, %jbody ]
  %jin = icmp slt i32 %j, %mm1
  br i1 %jin, label %jbody, label %latch
jbody:
  %k0 = add nsw i32 %rm, %j
  %k1 = add nsw i32 %rp, %j
  %k = add nsw i32 %r, %j
  %k0.64 = sext i32 %k0 to i64
  %k1.64 = sext i32 %k1 to i64
  %k.64 = sext i32 %k to i64
  %p0 = getelementptr inbounds double, ptr %a, i64 %k0.64
  %p1 = getelementptr inbounds double, ptr %a, i64 %k1.64
  %x0 = load double, ptr %p0
  %x1 = load double, ptr %p1
  %s = fadd double %x0, %x1
  %q = getelementptr inbounds double, ptr %b, i64 %k.64
  store double %s, ptr %q
  %jn = add nsw i32 %j, 1
  br label %jcond
latch:
  %ivn = add nsw i32 %iv, 1
  br label %cond
exit:
  ret void
}

declare void @__kmpc_for_static_init_4(ptr, i32, i32, ptr, ptr, ptr, ptr, i32, i32)

!nvvm.annotations = !{!0}
!ptxcc.kernels = !{!1}
!0 = !{ptr @rows, !"kernel", i32 1}
!1 = !{!"rows", i32 0, !""}
