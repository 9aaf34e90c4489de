; access-ranges (-fptxcc-multi-device): a 1-D stencil y[i] = x[i-1] + x[i] + x[i+1] over
; i = 1 .. n-2, as clang emits a `distribute parallel for`: the kernel's distribute loop hands
; its chunk [lb, ub] to the outlined parallel loop, whose static-init lower bound is the
; chunk's. The normalised iteration it is i - 1; x is read at [8*it, 8*it + 24) (the halo
; x[i-1] and x[i+1] included, one range), y written at [8*it + 8, 8*it + 16).
; RUN: ptxcc-opt --multi-device --passes=split-range,access-ranges %s | FileCheck %s
; RUN: ptxcc-opt --passes=split-range,access-ranges %s | FileCheck %s --check-prefix=OFF
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
%struct.ident_t = type { i32, i32, i32, i32, ptr }
@.str = private constant [19 x i8] c";s.c;stencil;5;1;;\00"
@loc = private constant %struct.ident_t { i32 0, i32 2, i32 0, i32 18, ptr @.str }

; The table: version 1, 1 variable (the iteration), 2 accesses:
;   argument 3 (param 2) read, 24 bytes at 8*it;  argument 2 (param 1) written, 8 bytes at 8 + 8*it
; CHECK: @__ptxcc_access_stencil = internal constant [20 x i64] [i64 2, i64 1, i64 2, i64 1, i64 2, i64 1, i64 24, i64 1, i64 8, i64 1, i64 2199023255552, i64 1, i64 2, i64 8, i64 2, i64 8, i64 0, i64 8, i64 1, i64 2199023255552]
; CHECK: access ranges of kernel 'stencil': argument 3: read [8*i, 8*i + 24); argument 2: written [8*i + 8, 8*i + 16)
; OFF-NOT: __ptxcc_access
; OFF-NOT: access ranges

define void @stencil(i64 %n.arg, ptr %y, ptr %x) "ptxcc-threads"="team" {
entry:
  %lb = alloca i32
  %ub = alloca i32
  %st = alloca i32
  %last = alloca i32
  %n = trunc i64 %n.arg to i32
  %trip = sub nsw i32 %n, 3
  store i32 0, ptr %lb
  store i32 %trip, ptr %ub
  store i32 1, ptr %st
  store i32 0, ptr %last
  call void @__kmpc_for_static_init_4(ptr @loc, i32 0, i32 92, ptr %last, ptr %lb, ptr %ub, ptr %st, i32 1, i32 1)
  %l = load i32, ptr %lb
  %u = load i32, ptr %ub
  %l64 = zext i32 %l to i64
  %u64 = zext i32 %u to i64
  call void @outlined(ptr %x, ptr %y, i64 %l64, i64 %u64)
  ret void
}

define internal void @outlined(ptr %x, ptr %y, i64 %plb, i64 %pub) {
entry:
  %lb = alloca i32
  %ub = alloca i32
  %st = alloca i32
  %last = alloca i32
  %iv.addr = alloca i32
  store i32 0, ptr %lb
  %l32 = trunc i64 %plb to i32
  %u32 = trunc i64 %pub to i32
  store i32 %l32, ptr %lb
  store i32 %u32, ptr %ub
  store i32 1, ptr %st
  store i32 0, ptr %last
  call void @__kmpc_for_static_init_4(ptr @loc, i32 0, i32 34, ptr %last, ptr %lb, ptr %ub, ptr %st, i32 1, i32 1)
  %first = load i32, ptr %lb
  store i32 %first, ptr %iv.addr
  br label %cond
cond:
  %iv = load i32, ptr %iv.addr
  %end = load i32, ptr %ub
  %more = icmp sle i32 %iv, %end
  br i1 %more, label %body, label %exit
body:
  %i = add nsw i32 %iv, 1
  %im1 = sub nsw i32 %i, 1
  %ip1 = add nsw i32 %i, 1
  %im1.64 = sext i32 %im1 to i64
  %i.64 = sext i32 %i to i64
  %ip1.64 = sext i32 %ip1 to i64
  %px0 = getelementptr inbounds double, ptr %x, i64 %im1.64
  %px1 = getelementptr inbounds double, ptr %x, i64 %i.64
  %px2 = getelementptr inbounds double, ptr %x, i64 %ip1.64
  %a = load double, ptr %px0
  %b = load double, ptr %px1
  %c = load double, ptr %px2
  %s0 = fadd double %a, %b
  %s = fadd double %s0, %c
  %py = getelementptr inbounds double, ptr %y, i64 %i.64
  store double %s, ptr %py
  %next = add nsw i32 %iv, 1
  store i32 %next, ptr %iv.addr
  br label %cond
exit:
  ret void
}

declare void @__kmpc_for_static_init_4(ptr, i32, i32, ptr, ptr, ptr, ptr, i32, i32)

!nvvm.annotations = !{!0}
!ptxcc.kernels = !{!1}
!0 = !{ptr @stencil, !"kernel", i32 1}
!1 = !{!"stencil", i32 0, !""}
