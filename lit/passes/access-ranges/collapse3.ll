; access-ranges: collapse(3) over i < n, j < m, k < l of c[(i*m + j)*ld + k] = 2*a[...] (rows
; of ld >= l elements, as Himeno's interior loops over padded arrays): clang's one
; normalised loop it < n*m*l recovers i = it / (m*l), then the rest r = it - i*(m*l) (a
; subtraction, not a srem), j = r / l and k = r - j*l. The rest becomes v2 = i % (m*l) and the
; middle index v3 = v2 / l (table version 2's quotient of a variable), so a part's range is
; bounded by planes of i, not by the iteration and v1 as two independent terms.
; RUN: ptxcc-opt --multi-device --passes=split-range,access-ranges %s | FileCheck %s
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
%struct.ident_t = type { i32, i32, i32, i32, ptr }
@.str = private constant [13 x i8] c";g.c;k;3;1;;\00"
@loc = private constant %struct.ident_t { i32 0, i32 2, i32 0, i32 12, ptr @.str }

; The table: version 2, 5 variables (it, it / (m*l), it % (m*l), v2 / l, v2 % l), 2 accesses;
; v3 is kind 5 over v2, v4 kind 6 over v2.
; CHECK: @__ptxcc_access_collapsed3 = internal constant [60 x i64] [i64 2, i64 5, i64 2, i64 1, i64 2,
; CHECK-SAME: i64 5, i64 2, i64 1, i64 1, i64 1, i64 1099578736642, i64 6, i64 2,
; CHECK: access ranges of kernel 'collapsed3': argument 6: read [8*arg2*arg4*v1 + 8*arg4*v3 + 8*v4, 8*arg2*arg4*v1 + 8*arg4*v3 + 8*v4 + 8); argument 5: written [8*arg2*arg4*v1 + 8*arg4*v3 + 8*v4, 8*arg2*arg4*v1 + 8*arg4*v3 + 8*v4 + 8) (v1 = i / (arg2*arg3), v2 = i % (arg2*arg3), v3 = v2 / (arg3), v4 = v2 % (arg3))

define void @collapsed3(i64 %n, i64 %m, i64 %l, i64 %ld, ptr %c, ptr %a) "ptxcc-threads"="team" {
entry:
  %lb = alloca i64
  %ub = alloca i64
  %st = alloca i64
  %last = alloca i32
  %ml = mul nsw i64 %m, %l
  %nml = mul nsw i64 %n, %ml
  %trip = sub nsw i64 %nml, 1
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
  %i = sdiv i64 %iv, %ml
  %im = mul nsw i64 %i, %ml
  %r = sub nsw i64 %iv, %im
  %j = sdiv i64 %r, %l
  %jl = mul nsw i64 %j, %l
  %k = sub nsw i64 %r, %jl
  %row = mul nsw i64 %i, %m
  %rj = add nsw i64 %row, %j
  %rjl = mul nsw i64 %rj, %ld
  %x = add nsw i64 %rjl, %k
  %p = getelementptr inbounds double, ptr %a, i64 %x
  %v = load double, ptr %p
  %y = fmul double %v, 2.0
  %q = getelementptr inbounds double, ptr %c, i64 %x
  store double %y, ptr %q
  %ivn = add nsw i64 %iv, 1
  br label %cond
exit:
  ret void
}

declare void @__kmpc_for_static_init_8(ptr, i32, i32, ptr, ptr, ptr, ptr, i64, i64)

!nvvm.annotations = !{!0}
!ptxcc.kernels = !{!1}
!0 = !{ptr @collapsed3, !"kernel", i32 1}
!1 = !{!"collapsed3", i32 0, !""}
