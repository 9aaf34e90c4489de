; access-ranges: a `distribute` loop whose body is an inner `parallel for` region (OpenACC's
; gang loop with an inner vector loop). The inner outlined function gets the row length m,
; the array a and the row i by reference: slots of the kernel, loaded in @inner. Each load is
; what the kernel stored before the call (m and a once, in the entry block; i at every
; iteration, right before the call), and the inner loop's variable ranges over all the
; iterations its static-init was given (each thread runs part of them): [0, m - 3].
; RUN: ptxcc-opt --multi-device --passes=split-range,access-ranges %s | FileCheck %s
;
; CHECK: access ranges of kernel 'gv': argument 2: read [4*arg1 + 4*arg1*i + 4*v1 + 4, 4*arg1 + 4*arg1*i + 4*v1 + 8); argument 3: written [4*arg1 + 4*arg1*i + 4*v1 + 4, 4*arg1 + 4*arg1*i + 4*v1 + 8) (v1 = 0 .. arg1 - 3)
; gv2 also hands b's slot to @other, which may change it: what @inner2 loads is not known,
; and a write through an unknown pointer may reach every argument.
; CHECK: access ranges of kernel 'gv2': argument 2: read and written: whole section (an access through a pointer the analysis cannot trace to one argument); argument 3: written: whole section
; gv3: a region nested in a region (OpenACC gang, worker, vector): @mid passes its
; by-reference arguments on to @inner3, which loads them: the same as gv.
; CHECK: access ranges of kernel 'gv3': argument 2: read [4*arg1 + 4*arg1*i + 4*v1 + 4, 4*arg1 + 4*arg1*i + 4*v1 + 8); argument 3: written [4*arg1 + 4*arg1*i + 4*v1 + 4, 4*arg1 + 4*arg1*i + 4*v1 + 8) (v1 = 0 .. arg1 - 3)
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
%struct.ident_t = type { i32, i32, i32, i32, ptr }
@.str = private constant [13 x i8] c";g.c;k;3;1;;\00"
@loc = private constant %struct.ident_t { i32 0, i32 2, i32 0, i32 12, ptr @.str }

define void @gv(i64 %m.arg, ptr %a, ptr %b) "ptxcc-threads"="team" {
entry:
  %m.slot = alloca i32
  %a.slot = alloca ptr
  %b.slot = alloca ptr
  %i.slot = alloca i32
  %lb = alloca i32
  %ub = alloca i32
  %st = alloca i32
  %last = alloca i32
  %m = trunc i64 %m.arg to i32
  store i32 %m, ptr %m.slot
  store ptr %a, ptr %a.slot
  store ptr %b, ptr %b.slot
  %trip = add nsw i32 %m, -3
  store i32 0, ptr %lb
  store i32 %trip, ptr %ub
  store i32 1, ptr %st
  store i32 0, ptr %last
  call void @__kmpc_for_static_init_4(ptr @loc, i32 0, i32 92, ptr %last, ptr %lb, ptr %ub, ptr %st, i32 1, i32 1)
  %l0 = load i32, ptr %lb
  br label %cond
cond:
  %iv = phi i32 [ %l0, %entry ], [ %ivn, %body ]
  %u0 = load i32, ptr %ub
  %in = icmp sle i32 %iv, %u0
  br i1 %in, label %body, label %exit
body:
  %i = add nsw i32 %iv, 1
  store i32 %i, ptr %i.slot
  call void @inner(ptr %m.slot, ptr %a.slot, ptr %i.slot, ptr %b.slot)
  %ivn = add nsw i32 %iv, 1
  br label %cond
exit:
  ret void
}

define void @gv2(i64 %m.arg, ptr %a, ptr %b) "ptxcc-threads"="team" {
entry:
  %m.slot = alloca i32
  %a.slot = alloca ptr
  %b.slot = alloca ptr
  %i.slot = alloca i32
  %lb = alloca i32
  %ub = alloca i32
  %st = alloca i32
  %last = alloca i32
  %m = trunc i64 %m.arg to i32
  store i32 %m, ptr %m.slot
  store ptr %a, ptr %a.slot
  store ptr %b, ptr %b.slot
  %trip = add nsw i32 %m, -3
  store i32 0, ptr %lb
  store i32 %trip, ptr %ub
  store i32 1, ptr %st
  store i32 0, ptr %last
  call void @__kmpc_for_static_init_4(ptr @loc, i32 0, i32 92, ptr %last, ptr %lb, ptr %ub, ptr %st, i32 1, i32 1)
  %l0 = load i32, ptr %lb
  br label %cond
cond:
  %iv = phi i32 [ %l0, %entry ], [ %ivn, %body ]
  %u0 = load i32, ptr %ub
  %in = icmp sle i32 %iv, %u0
  br i1 %in, label %body, label %exit
body:
  %i = add nsw i32 %iv, 1
  store i32 %i, ptr %i.slot
  call void @inner2(ptr %m.slot, ptr %a.slot, ptr %i.slot, ptr %b.slot)
  call void @other(ptr %b.slot)
  %ivn = add nsw i32 %iv, 1
  br label %cond
exit:
  ret void
}

define internal void @inner(ptr %mp, ptr %ap, ptr %ip, ptr %bp) {
entry:
  %lb = alloca i32
  %ub = alloca i32
  %st = alloca i32
  %last = alloca i32
  %m = load i32, ptr %mp
  %a = load ptr, ptr %ap
  %b = load ptr, ptr %bp
  %i = load i32, ptr %ip
  %ub0 = add nsw i32 %m, -3
  store i32 0, ptr %lb
  store i32 %ub0, ptr %ub
  store i32 1, ptr %st
  store i32 0, ptr %last
  call void @__kmpc_for_static_init_4(ptr @loc, i32 0, i32 34, ptr %last, ptr %lb, ptr %ub, ptr %st, i32 1, i32 1)
  %l0 = load i32, ptr %lb
  br label %cond
cond:
  %jv = phi i32 [ %l0, %entry ], [ %jn, %body ]
  %u0 = load i32, ptr %ub
  %in = icmp sle i32 %jv, %u0
  br i1 %in, label %body, label %exit
body:
  %j = add nsw i32 %jv, 1
  %row = mul nsw i32 %i, %m
  %x = add nsw i32 %row, %j
  %xs = sext i32 %x to i64
  %p = getelementptr inbounds float, ptr %a, i64 %xs
  %v = load float, ptr %p
  %q = getelementptr inbounds float, ptr %b, i64 %xs
  store float %v, ptr %q
  %jn = add nsw i32 %jv, 1
  br label %cond
exit:
  ret void
}

define internal void @inner2(ptr %mp, ptr %ap, ptr %ip, ptr %bp) {
entry:
  %lb = alloca i32
  %ub = alloca i32
  %st = alloca i32
  %last = alloca i32
  %m = load i32, ptr %mp
  %a = load ptr, ptr %ap
  %b = load ptr, ptr %bp
  %i = load i32, ptr %ip
  %ub0 = add nsw i32 %m, -3
  store i32 0, ptr %lb
  store i32 %ub0, ptr %ub
  store i32 1, ptr %st
  store i32 0, ptr %last
  call void @__kmpc_for_static_init_4(ptr @loc, i32 0, i32 34, ptr %last, ptr %lb, ptr %ub, ptr %st, i32 1, i32 1)
  %l0 = load i32, ptr %lb
  br label %cond
cond:
  %jv = phi i32 [ %l0, %entry ], [ %jn, %body ]
  %u0 = load i32, ptr %ub
  %in = icmp sle i32 %jv, %u0
  br i1 %in, label %body, label %exit
body:
  %j = add nsw i32 %jv, 1
  %row = mul nsw i32 %i, %m
  %x = add nsw i32 %row, %j
  %xs = sext i32 %x to i64
  %p = getelementptr inbounds float, ptr %a, i64 %xs
  %v = load float, ptr %p
  %q = getelementptr inbounds float, ptr %b, i64 %xs
  store float %v, ptr %q
  %jn = add nsw i32 %jv, 1
  br label %cond
exit:
  ret void
}

define void @gv3(i64 %m.arg, ptr %a, ptr %b) "ptxcc-threads"="team" {
entry:
  %m.slot = alloca i32
  %a.slot = alloca ptr
  %b.slot = alloca ptr
  %i.slot = alloca i32
  %lb = alloca i32
  %ub = alloca i32
  %st = alloca i32
  %last = alloca i32
  %m = trunc i64 %m.arg to i32
  store i32 %m, ptr %m.slot
  store ptr %a, ptr %a.slot
  store ptr %b, ptr %b.slot
  %trip = add nsw i32 %m, -3
  store i32 0, ptr %lb
  store i32 %trip, ptr %ub
  store i32 1, ptr %st
  store i32 0, ptr %last
  call void @__kmpc_for_static_init_4(ptr @loc, i32 0, i32 92, ptr %last, ptr %lb, ptr %ub, ptr %st, i32 1, i32 1)
  %l0 = load i32, ptr %lb
  br label %cond
cond:
  %iv = phi i32 [ %l0, %entry ], [ %ivn, %body ]
  %u0 = load i32, ptr %ub
  %in = icmp sle i32 %iv, %u0
  br i1 %in, label %body, label %exit
body:
  %i = add nsw i32 %iv, 1
  store i32 %i, ptr %i.slot
  call void @mid(ptr %m.slot, ptr %a.slot, ptr %i.slot, ptr %b.slot)
  %ivn = add nsw i32 %iv, 1
  br label %cond
exit:
  ret void
}

define internal void @mid(ptr %mp, ptr %ap, ptr %ip, ptr %bp) {
  call void @inner3(ptr %mp, ptr %ap, ptr %ip, ptr %bp)
  ret void
}

define internal void @inner3(ptr %mp, ptr %ap, ptr %ip, ptr %bp) {
entry:
  %lb = alloca i32
  %ub = alloca i32
  %st = alloca i32
  %last = alloca i32
  %m = load i32, ptr %mp
  %a = load ptr, ptr %ap
  %b = load ptr, ptr %bp
  %i = load i32, ptr %ip
  %ub0 = add nsw i32 %m, -3
  store i32 0, ptr %lb
  store i32 %ub0, ptr %ub
  store i32 1, ptr %st
  store i32 0, ptr %last
  call void @__kmpc_for_static_init_4(ptr @loc, i32 0, i32 34, ptr %last, ptr %lb, ptr %ub, ptr %st, i32 1, i32 1)
  %l0 = load i32, ptr %lb
  br label %cond
cond:
  %jv = phi i32 [ %l0, %entry ], [ %jn, %body ]
  %u0 = load i32, ptr %ub
  %in = icmp sle i32 %jv, %u0
  br i1 %in, label %body, label %exit
body:
  %j = add nsw i32 %jv, 1
  %row = mul nsw i32 %i, %m
  %x = add nsw i32 %row, %j
  %xs = sext i32 %x to i64
  %p = getelementptr inbounds float, ptr %a, i64 %xs
  %v = load float, ptr %p
  %q = getelementptr inbounds float, ptr %b, i64 %xs
  store float %v, ptr %q
  %jn = add nsw i32 %jv, 1
  br label %cond
exit:
  ret void
}

define internal void @other(ptr %bp) {
  store ptr null, ptr %bp
  ret void
}

declare void @__kmpc_for_static_init_4(ptr, i32, i32, ptr, ptr, ptr, ptr, i32, i32)

!nvvm.annotations = !{!0, !2, !4}
!ptxcc.kernels = !{!1, !3, !5}
!0 = !{ptr @gv, !"kernel", i32 1}
!1 = !{!"gv", i32 0, !""}
!2 = !{ptr @gv2, !"kernel", i32 1}
!3 = !{!"gv2", i32 0, !""}
!4 = !{ptr @gv3, !"kernel", i32 1}
!5 = !{!"gv3", i32 0, !""}
