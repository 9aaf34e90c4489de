; access-ranges without -fptxcc-multi-device: the loops -fopenmp-offload-parallel-for offloaded
; (the driver's `access_maps` hints name their directive's line) get a table too, for the
; runtime to map their pointers without a visible extent (ptx-runtime split/access_maps.rs).
; split-range marks their distribute loop `!ptxcc.ranges` (no split global: the loop runs whole,
; loop mapping clamps nothing); a kernel on another line is not looked at. Under --multi-device
; the same kernel is split as usual.
;
; The kernel also passes its `int` argument m on to the outlined loop as instcombine leaves it,
; `and i64 %m, 4294967295`, which the loop truncates back to i32: the row length is still the
; argument (arg1), and the 2-D subscripts i*m + j stay affine.
; RUN: ptxcc-opt --passes=split-range,access-ranges %s | FileCheck %s
; RUN: ptxcc-opt --passes=split-range,access-ranges,loop-mapping %s | FileCheck %s --check-prefix=MAPPED
; RUN: ptxcc-opt --multi-device --passes=split-range,access-ranges %s | FileCheck %s --check-prefix=SPLIT
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
%struct.ident_t = type { i32, i32, i32, i32, ptr }
@.str = private constant [13 x i8] c";g.c;k;3;1;;\00"
@loc = private constant %struct.ident_t { i32 0, i32 2, i32 0, i32 12, ptr @.str }
@.str2 = private constant [13 x i8] c";g.c;k;9;1;;\00"
@loc2 = private constant %struct.ident_t { i32 0, i32 2, i32 0, i32 12, ptr @.str2 }

; CHECK-NOT: __ptxcc_split_
; CHECK: @__ptxcc_access_rows = internal constant
; CHECK-NOT: __ptxcc_access_other
; CHECK: call void @__kmpc_for_static_init_4(ptr @loc, {{.*}}), !ptxcc.ranges
; CHECK: g.c:3:1: access ranges of kernel 'rows': argument 3: read [8*arg1*i + 8*v1, 8*arg1*i + 8*v1 + 8); argument 3: read [16*arg1 + 8*arg1*i + 8*v1, 16*arg1 + 8*arg1*i + 8*v1 + 8); argument 2: written [8*arg1 + 8*arg1*i + 8*v1, 8*arg1 + 8*arg1*i + 8*v1 + 8) (v1 = 1 .. arg1 - 2)
; CHECK-NOT: access ranges of kernel 'other'
; MAPPED-NOT: __ptxcc_split_
; MAPPED-NOT: call void @__kmpc_for_static_init
; SPLIT: @__ptxcc_split_rows = externally_initialized global [2 x i64]
; SPLIT: @__ptxcc_split_other = externally_initialized global [2 x i64]
; SPLIT: @__ptxcc_access_rows = internal constant
; SPLIT: @__ptxcc_access_other = internal constant
; SPLIT: call void @__kmpc_for_static_init_4(ptr @loc, {{.*}}), !ptxcc.split

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
  %l64 = zext i32 %l0 to i64
  %u64 = zext i32 %u0 to i64
  %m.masked = and i64 %m.arg, 4294967295
  call void @outlined(ptr %b, ptr %a, i64 %l64, i64 %u64, i64 %m.masked)
  ret void
}

define internal void @outlined(ptr %b, ptr %a, i64 %plb, i64 %pub, i64 %pm) {
entry:
  %lb = alloca i32
  %ub = alloca i32
  %st = alloca i32
  %last = alloca i32
  %m = trunc i64 %pm to i32
  %l32 = trunc i64 %plb to i32
  %u32 = trunc i64 %pub to i32
  store i32 %l32, ptr %lb
  store i32 %u32, ptr %ub
  store i32 1, ptr %st
  store i32 0, ptr %last
  call void @__kmpc_for_static_init_4(ptr @loc, i32 0, i32 34, ptr %last, ptr %lb, ptr %ub, ptr %st, i32 1, i32 1)
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

; A kernel whose directive the hints do not name (an explicit target construct).
define void @other(i64 %n.arg, ptr %y) "ptxcc-threads"="team" {
entry:
  %lb = alloca i32
  %ub = alloca i32
  %st = alloca i32
  %last = alloca i32
  %n = trunc i64 %n.arg to i32
  %trip = sub nsw i32 %n, 1
  store i32 0, ptr %lb
  store i32 %trip, ptr %ub
  store i32 1, ptr %st
  store i32 0, ptr %last
  call void @__kmpc_for_static_init_4(ptr @loc2, i32 0, i32 92, ptr %last, ptr %lb, ptr %ub, ptr %st, i32 1, i32 1)
  %l0 = load i32, ptr %lb
  %u0 = load i32, ptr %ub
  br label %cond
cond:
  %iv = phi i32 [ %l0, %entry ], [ %ivn, %body ]
  %in = icmp sle i32 %iv, %u0
  br i1 %in, label %body, label %exit
body:
  %iv.64 = sext i32 %iv to i64
  %q = getelementptr inbounds double, ptr %y, i64 %iv.64
  store double 0.0, ptr %q
  %ivn = add nsw i32 %iv, 1
  br label %cond
exit:
  ret void
}

declare void @__kmpc_for_static_init_4(ptr, i32, i32, ptr, ptr, ptr, ptr, i32, i32)

!nvvm.annotations = !{!0, !3}
!ptxcc.kernels = !{!1, !4}
!ptxcc.driver_hints = !{!5, !6}
!0 = !{ptr @rows, !"kernel", i32 1}
!1 = !{!"rows", i32 0, !"g.c:3:1"}
!3 = !{ptr @other, !"kernel", i32 1}
!4 = !{!"other", i32 0, !"g.c:9:1"}
!5 = !{!"version", i32 1}
!6 = !{!"access_maps", !"g.c", i32 3}
