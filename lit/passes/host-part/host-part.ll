; host-part (-fptxcc-hybrid): the host version of a target region (clang's fallback) gets the
; same sub-range protocol as its split device kernel. Its one `distribute` static-init call
; reads bounds clamped to the part [lo, hi) that @__ptxcc_hostsplit_<kernel> holds (all
; iterations by default, so a fallback after a failed offload still runs the whole loop), and
; keeps its last-iteration flag only in the part holding the last iteration. An entry
; @__ptxcc_hostpart.<kernel>(args, lo, hi) sets the range, runs the host version on the
; arguments args[i] points at, and sets the range back. A region that uses a global variable
; (its host and device copies differ) or asks which device it runs on gets no host part.
; RUN: ptxcc-opt --passes=host-part %s 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=WHY < %t.err
target triple = "x86_64-pc-linux-gnu"
%struct.ident_t = type { i32, i32, i32, i32, ptr }
@.str = private constant [16 x i8] c";h.c;main;3;1;;\00"
@loc = private constant %struct.ident_t { i32 0, i32 2, i32 0, i32 16, ptr @.str }
@counter = global i32 0

; CHECK: @__ptxcc_hostsplit___omp_offloading_1_2_main_l3 = internal global [2 x i64] [i64 0, i64 -1], align 8
; CHECK: @__ptxcc_hostsplit___omp_offloading_1_2_main_l9 = internal global [2 x i64] [i64 0, i64 -1], align 8
; CHECK-NOT: @__ptxcc_hostsplit___omp_offloading_1_2_main_l20

define internal void @__omp_offloading_1_2_main_l3(i64 %n, ptr %a) {
  call void (ptr, i32, ptr, ...) @__kmpc_fork_teams(ptr @loc, i32 2, ptr @__omp_offloading_1_2_main_l3.omp_outlined, i64 %n, ptr %a)
  ret void
}

; The clamp reads the bounds, clamps them to the part and stores them back before libomp
; deals them to the host's teams; the flag is kept only where the part holds the last one.
; CHECK-LABEL: define internal void @__omp_offloading_1_2_main_l3.omp_outlined(
; CHECK: %ptxcc.host.lb0 = load i32, ptr %lb
; CHECK-NEXT: %ptxcc.host.ub0 = load i32, ptr %ub
; CHECK-NEXT: %ptxcc.split.lo = load i64, ptr @__ptxcc_hostsplit___omp_offloading_1_2_main_l3, align 8
; CHECK-NEXT: %ptxcc.split.hi = load i64, ptr getelementptr inbounds (i64, ptr @__ptxcc_hostsplit___omp_offloading_1_2_main_l3, i64 1), align 8
; CHECK: %ptxcc.split.last = icmp eq i64 %ptxcc.split.hi.in, %ptxcc.split.trip
; CHECK: %ptxcc.split.lb = add i32 %ptxcc.host.lb0,
; CHECK: %ptxcc.split.ub = sub i32
; CHECK-NEXT: store i32 %ptxcc.split.lb, ptr %lb
; CHECK-NEXT: store i32 %ptxcc.split.ub, ptr %ub
; CHECK-NEXT: call void @__kmpc_for_static_init_4(ptr @loc, i32 %gtid, i32 92, ptr %last, ptr %lb, ptr %ub, ptr %st, i32 1, i32 1)
; CHECK-NEXT: %ptxcc.host.last = load i32, ptr %last
; CHECK-NEXT: %ptxcc.host.last.part = select i1 %ptxcc.split.last, i32 %ptxcc.host.last, i32 0
; CHECK-NEXT: store i32 %ptxcc.host.last.part, ptr %last
define internal void @__omp_offloading_1_2_main_l3.omp_outlined(ptr %gtid.addr, ptr %btid, i64 %n, ptr %a) {
entry:
  %last = alloca i32
  %lb = alloca i32
  %ub = alloca i32
  %st = alloca i32
  %gtid = load i32, ptr %gtid.addr
  %trip = trunc i64 %n to i32
  %ub0 = sub i32 %trip, 1
  store i32 0, ptr %lb
  store i32 %ub0, ptr %ub
  call void @__kmpc_for_static_init_4(ptr @loc, i32 %gtid, i32 92, ptr %last, ptr %lb, ptr %ub, ptr %st, i32 1, i32 1)
  ret void
}

; A 64-bit loop (long counter): the bounds are i64.
define internal void @__omp_offloading_1_2_main_l9(ptr %a) {
  call void (ptr, i32, ptr, ...) @__kmpc_fork_teams(ptr @loc, i32 1, ptr @__omp_offloading_1_2_main_l9.omp_outlined, ptr %a)
  ret void
}

; CHECK-LABEL: define internal void @__omp_offloading_1_2_main_l9.omp_outlined(
; CHECK: %ptxcc.host.lb0 = load i64, ptr %lb
; CHECK: store i64 %ptxcc.split.lb, ptr %lb
; CHECK: call void @__kmpc_for_static_init_8(
define internal void @__omp_offloading_1_2_main_l9.omp_outlined(ptr %gtid.addr, ptr %btid, ptr %a) {
entry:
  %last = alloca i32
  %lb = alloca i64
  %ub = alloca i64
  %st = alloca i64
  %gtid = load i32, ptr %gtid.addr
  store i64 0, ptr %lb
  store i64 99, ptr %ub
  call void @__kmpc_for_static_init_8(ptr @loc, i32 %gtid, i32 92, ptr %last, ptr %lb, ptr %ub, ptr %st, i64 1, i64 1)
  ret void
}

; A region that counts in a global variable: no host part.
; WHY: ptxcc-opt: remark: __omp_offloading_1_2_main_l20: no host part: it uses the global variable 'counter', whose host and device copies are different variables
define internal void @__omp_offloading_1_2_main_l20() {
  call void (ptr, i32, ptr, ...) @__kmpc_fork_teams(ptr @loc, i32 0, ptr @__omp_offloading_1_2_main_l20.omp_outlined)
  ret void
}

define internal void @__omp_offloading_1_2_main_l20.omp_outlined(ptr %gtid.addr, ptr %btid) {
entry:
  %last = alloca i32
  %lb = alloca i32
  %ub = alloca i32
  %st = alloca i32
  %gtid = load i32, ptr %gtid.addr
  store i32 0, ptr %lb
  store i32 9, ptr %ub
  call void @__kmpc_for_static_init_4(ptr @loc, i32 %gtid, i32 92, ptr %last, ptr %lb, ptr %ub, ptr %st, i32 1, i32 1)
  %c = load i32, ptr @counter
  %c1 = add i32 %c, 1
  store i32 %c1, ptr @counter
  ret void
}

; A region that asks where it runs: no host part.
; WHY: ptxcc-opt: remark: __omp_offloading_1_2_main_l30: no host part: it calls 'omp_is_initial_device', whose answer on the host differs from a device's
define internal void @__omp_offloading_1_2_main_l30() {
  %d = call i32 @omp_is_initial_device()
  ret void
}

; A region without a distribute loop.
; WHY: ptxcc-opt: remark: __omp_offloading_1_2_main_l40: no host part: its host version has no 'distribute' loop
define internal void @__omp_offloading_1_2_main_l40() {
  ret void
}

; The entries: the range in, the host version on the values args[i] points at, the range back.
; CHECK-LABEL: define internal void @__ptxcc_hostpart.__omp_offloading_1_2_main_l3(ptr %0, i64 %1, i64 %2)
; CHECK-NEXT: entry:
; CHECK-NEXT: store i64 %1, ptr @__ptxcc_hostsplit___omp_offloading_1_2_main_l3, align 8
; CHECK-NEXT: store i64 %2, ptr getelementptr inbounds (i64, ptr @__ptxcc_hostsplit___omp_offloading_1_2_main_l3, i64 1), align 8
; CHECK-NEXT: %3 = getelementptr inbounds ptr, ptr %0, i64 0
; CHECK-NEXT: %4 = load ptr, ptr %3,
; CHECK-NEXT: %arg0 = load i64, ptr %4,
; CHECK-NEXT: %5 = getelementptr inbounds ptr, ptr %0, i64 1
; CHECK-NEXT: %6 = load ptr, ptr %5,
; CHECK-NEXT: %arg1 = load ptr, ptr %6,
; CHECK-NEXT: call void @__omp_offloading_1_2_main_l3(i64 %arg0, ptr %arg1)
; CHECK-NEXT: store i64 0, ptr @__ptxcc_hostsplit___omp_offloading_1_2_main_l3, align 8
; CHECK-NEXT: store i64 -1, ptr getelementptr inbounds (i64, ptr @__ptxcc_hostsplit___omp_offloading_1_2_main_l3, i64 1), align 8
; CHECK-NEXT: ret void
; CHECK-LABEL: define internal void @__ptxcc_hostpart.__omp_offloading_1_2_main_l9(ptr %0, i64 %1, i64 %2)
; CHECK-NOT: define internal void @__ptxcc_hostpart.__omp_offloading_1_2_main_l20

declare void @__kmpc_fork_teams(ptr, i32, ptr, ...)
declare void @__kmpc_for_static_init_4(ptr, i32, i32, ptr, ptr, ptr, ptr, i32, i32)
declare void @__kmpc_for_static_init_8(ptr, i32, i32, ptr, ptr, ptr, ptr, i64, i64)
declare i32 @omp_is_initial_device()
