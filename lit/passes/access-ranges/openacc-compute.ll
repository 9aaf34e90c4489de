; access-ranges for the kernels of OpenACC compute constructs (the driver's `acc_compute`
; hints name their line): as for an offloaded parallel-for loop, split-range marks the
; distribute loop `!ptxcc.ranges` and access-ranges tables what the loop reaches, so that the
; runtime maps their pointers without a data clause (nvc's implicit copy from the loop bounds).
; A kernel that is not a teams + parallel loop (a `serial` construct: one thread) gets no
; table, and a remark that says why its pointers need a data clause.
; RUN: ptxcc-opt --passes=split-range,access-ranges %s | FileCheck %s
; CHECK-NOT: __ptxcc_split_
; CHECK: @__ptxcc_access_vec = internal constant
; CHECK-NOT: __ptxcc_access_serial
; CHECK: call void @__kmpc_distribute_static_init_4(ptr @loc, {{.*}}), !ptxcc.ranges
; CHECK-DAG: g.c:3:1: access ranges of kernel 'vec': argument 2: read and written [8*i + 8, 8*i + 16)
; CHECK-DAG: g.c:9:1: no implicit copy from the loop bounds for pointers without a data clause: it is not a teams + parallel loop ('target teams distribute parallel for', 'parallel loop'); such a pointer must be present (a data region, enter data) or have a data clause (copy(p[0:n]))
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
%struct.ident_t = type { i32, i32, i32, i32, ptr }
@.str = private constant [13 x i8] c";g.c;k;3;1;;\00"
@loc = private constant %struct.ident_t { i32 0, i32 2, i32 0, i32 12, ptr @.str }

; #pragma acc parallel loop / for (i = 1; i < n; i++) x[i] += 1;
define void @vec(i64 %n.arg, ptr %x) "ptxcc-threads"="team" {
entry:
  %lb = alloca i32
  %ub = alloca i32
  %st = alloca i32
  %last = alloca i32
  %n = trunc i64 %n.arg to i32
  %trip = sub nsw i32 %n, 2
  store i32 0, ptr %lb
  store i32 %trip, ptr %ub
  store i32 1, ptr %st
  store i32 0, ptr %last
  call void @__kmpc_distribute_static_init_4(ptr @loc, i32 0, i32 92, ptr %last, ptr %lb, ptr %ub, ptr %st, i32 1, i32 1)
  %l0 = load i32, ptr %lb
  %u0 = load i32, ptr %ub
  br label %cond
cond:
  %iv = phi i32 [ %l0, %entry ], [ %ivn, %body ]
  %in = icmp sle i32 %iv, %u0
  br i1 %in, label %body, label %exit
body:
  %i = add nsw i32 %iv, 1
  %i.64 = sext i32 %i to i64
  %q = getelementptr inbounds double, ptr %x, i64 %i.64
  %v = load double, ptr %q
  %w = fadd double %v, 1.0
  store double %w, ptr %q
  %ivn = add nsw i32 %iv, 1
  br label %cond
exit:
  ret void
}

; #pragma acc serial / for (i = 0; i < n; i++) y[i] = 0;  (one thread, no distribute)
define void @serial(i64 %n.arg, ptr %y) "ptxcc-threads"="team" {
entry:
  %n = trunc i64 %n.arg to i32
  br label %cond
cond:
  %iv = phi i32 [ 0, %entry ], [ %ivn, %body ]
  %in = icmp slt i32 %iv, %n
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

declare void @__kmpc_distribute_static_init_4(ptr, i32, i32, ptr, ptr, ptr, ptr, i32, i32)

!nvvm.annotations = !{!0, !3}
!ptxcc.kernels = !{!1, !4}
!ptxcc.driver_hints = !{!5, !6, !7}
!0 = !{ptr @vec, !"kernel", i32 1}
!1 = !{!"vec", i32 0, !"g.c:3:1"}
!3 = !{ptr @serial, !"kernel", i32 1}
!4 = !{!"serial", i32 3, !"g.c:9:1"}
!5 = !{!"version", i32 1}
!6 = !{!"acc_compute", !"g.c", i32 3}
!7 = !{!"acc_compute", !"g.c", i32 9}
