; teams + parallel (a combined 'target teams distribute parallel for'): the fork calls become
; direct calls, the kernel is annotated and recorded in SPMD mode (0).
; RUN: ptxcc-opt --passes=kernel-formation %s | FileCheck %s
target triple = "nvptx64-nvidia-cuda"

%struct.ident_t = type { i32, i32, i32, i32, ptr }
@.str = private constant [21 x i8] c";saxpy.c;saxpy;7;1;;\00"
@loc = private constant %struct.ident_t { i32 0, i32 2, i32 0, i32 20, ptr @.str }

; The kernel and teams levels run in every thread for the team's initial thread ("team"); the
; parallel region's function keeps the block's threads (no attribute).
; CHECK: define void @__omp_offloading_1_2_saxpy_l7(i64 %n, ptr %y) #[[TEAM:[0-9]+]]
; CHECK-NEXT: %ptxcc.gtid = alloca i32
; CHECK-NEXT: store i32 0, ptr %ptxcc.gtid
; CHECK-NOT: __kmpc
; CHECK: call void @__omp_offloading_1_2_saxpy_l7.omp_outlined(ptr %ptxcc.gtid, ptr %ptxcc.gtid, i64 %n, ptr %y)
define void @__omp_offloading_1_2_saxpy_l7(i64 %n, ptr %y) {
  %g = call i32 @__kmpc_global_thread_num(ptr @loc)
  call void @__kmpc_push_num_teams(ptr @loc, i32 %g, i32 0, i32 0)
  call void (ptr, i32, ptr, ...) @__kmpc_fork_teams(ptr @loc, i32 2, ptr @__omp_offloading_1_2_saxpy_l7.omp_outlined, i64 %n, ptr %y)
  ret void
}

; The teams code writes only its locals, so every thread may run it.
; CHECK: define internal void @__omp_offloading_1_2_saxpy_l7.omp_outlined(ptr %gtid, ptr %btid, i64 %n, ptr %y) #[[TEAM]]
; CHECK: call void @__omp_offloading_1_2_saxpy_l7.omp_outlined.omp_outlined(ptr %ptxcc.gtid, ptr %ptxcc.gtid, i64 %n, ptr %y)
; CHECK-NOT: nvvm.barrier
; CHECK: ret void
define internal void @__omp_offloading_1_2_saxpy_l7.omp_outlined(ptr %gtid, ptr %btid, i64 %n, ptr %y) {
  %local = alloca i32
  store i32 1, ptr %local
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr @loc, i32 2, ptr @__omp_offloading_1_2_saxpy_l7.omp_outlined.omp_outlined, i64 %n, ptr %y)
  ret void
}

; CHECK-LABEL: define internal void @__omp_offloading_1_2_saxpy_l7.omp_outlined.omp_outlined(ptr %gtid, ptr %btid, i64 %n, ptr %y) {
; CHECK-NOT: __kmpc_for_static_fini
; CHECK: ret void
; CHECK-NOT: declare {{.*}}@__kmpc
define internal void @__omp_offloading_1_2_saxpy_l7.omp_outlined.omp_outlined(ptr %gtid, ptr %btid, i64 %n, ptr %y) {
  store float 1.0, ptr %y
  call void @__kmpc_for_static_fini(ptr @loc, i32 0)
  ret void
}

declare i32 @__kmpc_global_thread_num(ptr)
declare void @__kmpc_push_num_teams(ptr, i32, i32, i32)
declare void @__kmpc_fork_teams(ptr, i32, ptr, ...)
declare void @__kmpc_fork_call(ptr, i32, ptr, ...)
declare void @__kmpc_for_static_fini(ptr, i32)

; CHECK: attributes #[[TEAM]] = { "ptxcc-threads"="team" }
; CHECK: !nvvm.annotations = !{![[K:[0-9]+]]}
; CHECK: !ptxcc.kernels = !{![[R:[0-9]+]]}
; CHECK: ![[K]] = !{ptr @__omp_offloading_1_2_saxpy_l7, !"kernel", i32 1}
; CHECK: ![[R]] = !{!"__omp_offloading_1_2_saxpy_l7", i32 0, !"saxpy.c:7:1"}
