; access-ranges: collapse(2) over i < n, j < m of c[i*ld + j] = 2*a[i*ld + j]: clang's one
; normalised loop it < n*m, with i = it / m and j = it % m. They become variables v1 = i / m in [lo/m, (hi-1)/m] and
; v2 = i % m in [0, m-1]: a part touches whole rows (correct; the rows its iterations
; start and end in are included whole).
; RUN: ptxcc-opt --multi-device --passes=split-range,access-ranges %s | FileCheck %s
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
%struct.ident_t = type { i32, i32, i32, i32, ptr }
@.str = private constant [13 x i8] c";g.c;k;3;1;;\00"
@loc = private constant %struct.ident_t { i32 0, i32 2, i32 0, i32 12, ptr @.str }

; CHECK: @__ptxcc_access_collapsed = internal constant
; CHECK: access ranges of kernel 'collapsed': argument 5: read [8*arg3*v1 + 8*v2, 8*arg3*v1 + 8*v2 + 8); argument 4: written [8*arg3*v1 + 8*v2, 8*arg3*v1 + 8*v2 + 8) (v1 = i / (arg2), v2 = i % (arg2))

define void @collapsed(i64 %n, i64 %m, i64 %ld, ptr %c, ptr %a) "ptxcc-threads"="team" {
entry:
  %lb = alloca i64
  %ub = alloca i64
  %st = alloca i64
  %last = alloca i32
  %nm = mul nsw i64 %n, %m
  %trip = sub nsw i64 %nm, 1
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
  %i = sdiv i64 %iv, %m
  %j = srem i64 %iv, %m
  %r = mul nsw i64 %i, %ld
  %k = add nsw i64 %r, %j
  %p = getelementptr inbounds double, ptr %a, i64 %k
  %x = load double, ptr %p
  %y = fmul double %x, 2.0
  %q = getelementptr inbounds double, ptr %c, i64 %k
  store double %y, ptr %q
  %ivn = add nsw i64 %iv, 1
  br label %cond
exit:
  ret void
}

declare void @__kmpc_for_static_init_8(ptr, i32, i32, ptr, ptr, ptr, ptr, i64, i64)

!nvvm.annotations = !{!0}
!ptxcc.kernels = !{!1}
!0 = !{ptr @collapsed, !"kernel", i32 1}
!1 = !{!"collapsed", i32 0, !""}
