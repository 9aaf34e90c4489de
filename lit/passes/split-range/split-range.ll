; split-range (-fptxcc-multi-device): a kernel whose work is one `distribute` loop gets the
; device global @__ptxcc_split_<kernel> ([lo, hi) of its normalised iterations, all of them
; by default) and its distribute call is marked with it; loop mapping then clamps the loop's
; bounds [lb0, ub0] to [lb0 + min(lo, trip), lb0 + min(hi, trip) - 1] and keeps the last-
; iteration flag for the part with the loop's last iteration. A kernel with an atomic update
; (a reduction) or without a distribute loop is not split, and says why. Without
; --multi-device the pass changes nothing.
; RUN: ptxcc-opt --multi-device --passes=split-range %s | FileCheck %s --check-prefix=MARK
; RUN: ptxcc-opt --multi-device --passes=split-range,loop-mapping %s | FileCheck %s --check-prefix=CLAMP
; RUN: ptxcc-opt --passes=split-range %s | FileCheck %s --check-prefix=OFF
target triple = "nvptx64-nvidia-cuda"
%struct.ident_t = type { i32, i32, i32, i32, ptr }
@.str.a = private constant [17 x i8] c";g.c;split;3;1;;\00"
@loc.a = private constant %struct.ident_t { i32 0, i32 2, i32 0, i32 16, ptr @.str.a }

; MARK: @__ptxcc_split_split = externally_initialized global [2 x i64] [i64 0, i64 -1], align 8
; MARK: @__ptxcc_split_reduced = externally_initialized global
; MARK-NOT: @__ptxcc_split_teams_only
; MARK-LABEL: define void @split(
; MARK: call void @__kmpc_for_static_init_4(ptr @loc.a, i32 0, i32 92, ptr %last, ptr %lb, ptr %ub, ptr %st, i32 1, i32 1), !ptxcc.split ![[MD:[0-9]+]]
; MARK: not split over devices: it has no 'distribute' loop
; MARK: ![[MD]] = !{!"__ptxcc_split_split"}

; CLAMP-LABEL: define void @split(
; CLAMP: %ptxcc.lb0 = load i32, ptr %lb
; CLAMP-NEXT: %ptxcc.ub0 = load i32, ptr %ub
; CLAMP-NEXT: %ptxcc.split.lo = load i64, ptr @__ptxcc_split_split, align 8
; CLAMP-NEXT: %ptxcc.split.hi = load i64, ptr getelementptr inbounds (i64, ptr @__ptxcc_split_split, i64 1), align 8
; CLAMP-NEXT: %[[D:[0-9]+]] = sub i32 %ptxcc.ub0, %ptxcc.lb0
; CLAMP-NEXT: %[[T:[0-9]+]] = add i32 %[[D]], 1
; CLAMP-NEXT: %ptxcc.split.trip = zext i32 %[[T]] to i64
; CLAMP: %ptxcc.split.lo.in = select i1 %{{[0-9]+}}, i64 %ptxcc.split.lo, i64 %ptxcc.split.trip
; CLAMP: %ptxcc.split.hi.in = select i1 %{{[0-9]+}}, i64 %ptxcc.split.hi, i64 %ptxcc.split.trip
; CLAMP-NEXT: %ptxcc.split.last = icmp eq i64 %ptxcc.split.hi.in, %ptxcc.split.trip
; CLAMP: %ptxcc.split.lb = add i32 %ptxcc.lb0,
; CLAMP: %ptxcc.split.ub = sub i32 %{{[0-9]+}}, 1
; The blocks share the clamped range (this distribute is not fused with a parallel loop).
; CLAMP: sub i32 %ptxcc.split.ub, %ptxcc.split.lb
; CLAMP: %ptxcc.split.islast = and i1 %{{.*}}, %ptxcc.split.last
; CLAMP: store i32 %ptxcc.lb, ptr %lb
; CLAMP-NEXT: store i32 %ptxcc.ub, ptr %ub
; CLAMP: %ptxcc.last32 = zext i1 %ptxcc.split.islast to i32
; CLAMP-LABEL: define void @reduced(
; CLAMP: load i64, ptr @__ptxcc_split_reduced
; CLAMP-LABEL: define void @teams_only(
; CLAMP-NOT: ptxcc.split

; OFF-NOT: __ptxcc_split
; OFF-NOT: !ptxcc.split

define void @split(i32 %ub0, ptr %out) "ptxcc-threads"="team" {
entry:
  %iv = alloca i32
  %lb = alloca i32
  %ub = alloca i32
  %st = alloca i32
  %last = alloca i32
  store i32 0, ptr %lb
  store i32 %ub0, ptr %ub
  store i32 1, ptr %st
  store i32 0, ptr %last
  call void @__kmpc_for_static_init_4(ptr @loc.a, i32 0, i32 92, ptr %last, ptr %lb, ptr %ub, ptr %st, i32 1, i32 1)
  %l0 = load i32, ptr %lb
  %u0 = load i32, ptr %ub
  br label %cond
cond:
  %i = phi i32 [ %l0, %entry ], [ %next, %body ]
  %in = icmp sle i32 %i, %u0
  br i1 %in, label %body, label %exit
body:
  %i64 = sext i32 %i to i64
  %p = getelementptr double, ptr %out, i64 %i64
  store double 1.0, ptr %p
  %next = add nsw i32 %i, 1
  br label %cond
exit:
  ret void
}

define void @reduced(i32 %ub0, ptr %sum) "ptxcc-threads"="team" {
entry:
  %lb = alloca i32
  %ub = alloca i32
  %st = alloca i32
  %last = alloca i32
  store i32 0, ptr %lb
  store i32 %ub0, ptr %ub
  call void @__kmpc_for_static_init_4(ptr @loc.a, i32 0, i32 92, ptr %last, ptr %lb, ptr %ub, ptr %st, i32 1, i32 1)
  %old = atomicrmw fadd ptr %sum, double 1.0 monotonic
  ret void
}

define void @teams_only(ptr %out) "ptxcc-threads"="team" {
entry:
  store double 2.0, ptr %out
  ret void
}

declare void @__kmpc_for_static_init_4(ptr, i32, i32, ptr, ptr, ptr, ptr, i32, i32)

!nvvm.annotations = !{!0, !1, !2}
!ptxcc.kernels = !{!3, !4, !5}
!0 = !{ptr @split, !"kernel", i32 1}
!1 = !{ptr @reduced, !"kernel", i32 1}
!2 = !{ptr @teams_only, !"kernel", i32 1}
!3 = !{!"split", i32 0, !""}
!4 = !{!"reduced", i32 0, !""}
!5 = !{!"teams_only", i32 0, !""}
