; A parallel region that its if clause serialises: clang calls its function directly between
; __kmpc_serialized_parallel and __kmpc_end_serialized_parallel where the condition is false, and
; forks it where it is true. The serialised call gets a copy of the function (one thread: in team
; code the copy is team code, "team"); the region ends with a block barrier. The forked original
; keeps the block's threads. A serialised region inside a parallel region runs on the thread that
; meets it ("single"). A region whose condition is constant false leaves no original behind.
; RUN: ptxcc-opt --passes=kernel-formation %s | FileCheck %s
target triple = "nvptx64-nvidia-cuda"
%struct.ident_t = type { i32, i32, i32, i32, ptr }
@.str = private constant [16 x i8] c";s.c;f;9;1;;\00\00\00\00"
@loc = private constant %struct.ident_t { i32 0, i32 2, i32 0, i32 20, ptr @.str }

define void @__omp_offloading_1_2_f_l9(ptr %p, i64 %c) {
  call void (ptr, i32, ptr, ...) @__kmpc_fork_teams(ptr @loc, i32 2, ptr @__omp_offloading_1_2_f_l9.omp_outlined, ptr %p, i64 %c)
  ret void
}

; CHECK-LABEL: define internal void @__omp_offloading_1_2_f_l9.omp_outlined(
; CHECK: call void @__omp_offloading_1_2_f_l9.omp_outlined.omp_outlined(ptr %ptxcc.gtid, ptr %ptxcc.gtid, ptr %p)
; CHECK: serial:
; CHECK-NOT: __kmpc
; CHECK: call void @__omp_offloading_1_2_f_l9.omp_outlined.omp_outlined.ptxcc.serial(ptr %tid, ptr %zero, ptr %p)
; CHECK-NEXT: call void @llvm.nvvm.barrier0()
define internal void @__omp_offloading_1_2_f_l9.omp_outlined(ptr %g, ptr %b, ptr %p, i64 %c) {
  %tid = alloca i32
  %zero = alloca i32
  %cond = icmp ne i64 %c, 0
  br i1 %cond, label %fork, label %serial
fork:
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr @loc, i32 1, ptr @__omp_offloading_1_2_f_l9.omp_outlined.omp_outlined, ptr %p)
  br label %done
serial:
  call void @__kmpc_serialized_parallel(ptr @loc, i32 0)
  store i32 0, ptr %tid
  store i32 0, ptr %zero
  call void @__omp_offloading_1_2_f_l9.omp_outlined.omp_outlined(ptr %tid, ptr %zero, ptr %p)
  call void @__kmpc_end_serialized_parallel(ptr @loc, i32 0)
  br label %done
done:
  ret void
}

; The forked region: the block's threads (no attribute); its own serialised region (an inner
; 'parallel if(0)', constant false) runs on each thread alone, and the original of that one is gone.
; CHECK-LABEL: define internal void @__omp_offloading_1_2_f_l9.omp_outlined.omp_outlined(ptr %g, ptr %b, ptr %p) {
; CHECK-NOT: __kmpc_serialized_parallel
; CHECK: call void @[[INNER_SINGLE:__omp_offloading_1_2_f_l9.omp_outlined.omp_outlined.omp_outlined.ptxcc.serial[0-9]*]](ptr %t, ptr %t, ptr %p)
; CHECK-NOT: __kmpc_end_serialized_parallel
; CHECK-NOT: barrier
; CHECK: ret void
define internal void @__omp_offloading_1_2_f_l9.omp_outlined.omp_outlined(ptr %g, ptr %b, ptr %p) {
  %t = alloca i32
  store float 1.0, ptr %p
  call void @__kmpc_serialized_parallel(ptr @loc, i32 0)
  call void @__omp_offloading_1_2_f_l9.omp_outlined.omp_outlined.omp_outlined(ptr %t, ptr %t, ptr %p)
  call void @__kmpc_end_serialized_parallel(ptr @loc, i32 0)
  ret void
}
; CHECK-NOT: define internal void @__omp_offloading_1_2_f_l9.omp_outlined.omp_outlined.omp_outlined(
define internal void @__omp_offloading_1_2_f_l9.omp_outlined.omp_outlined.omp_outlined(ptr %g, ptr %b, ptr %p) {
  store float 2.0, ptr %p
  ret void
}

; The team's copy: team code, so its store is thread 0's, followed by a barrier; its own inner
; serialised region is team code too, and ends with a barrier.
; CHECK: define internal void @__omp_offloading_1_2_f_l9.omp_outlined.omp_outlined.ptxcc.serial(ptr %g, ptr %b, ptr %p) #[[TEAM:[0-9]+]] {
; CHECK: %ptxcc.dst = select i1 %ptxcc.leader, ptr %p, ptr %ptxcc.sink
; CHECK-NEXT: store float 1.000000e+00, ptr %ptxcc.dst
; CHECK-NEXT: call void @llvm.nvvm.barrier0()
; CHECK-NEXT: call void @[[INNER_TEAM:__omp_offloading_1_2_f_l9.omp_outlined.omp_outlined.omp_outlined.ptxcc.serial[0-9]*]](ptr %t, ptr %t, ptr %p)
; CHECK-NEXT: call void @llvm.nvvm.barrier0()

; CHECK-DAG: define internal void @[[INNER_TEAM]](ptr %g, ptr %b, ptr %p) #[[TEAM]] {
; CHECK-DAG: define internal void @[[INNER_SINGLE]](ptr %g, ptr %b, ptr %p) #[[SINGLE:[0-9]+]] {

declare void @__kmpc_fork_teams(ptr, i32, ptr, ...)
declare void @__kmpc_fork_call(ptr, i32, ptr, ...)
declare void @__kmpc_serialized_parallel(ptr, i32)
declare void @__kmpc_end_serialized_parallel(ptr, i32)
; CHECK-DAG: attributes #[[TEAM]] = { "ptxcc-threads"="team" }
; CHECK-DAG: attributes #[[SINGLE]] = { "ptxcc-threads"="single" }
