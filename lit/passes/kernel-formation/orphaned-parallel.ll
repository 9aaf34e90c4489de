; A parallel region of a function the target region calls (a declare target function with
; 'parallel for'), which no level of the region forks: the fork becomes a direct call, the
; outlined function runs on the calling thread alone ("single": its barrier synchronises
; nothing) and the kernel keeps its own execution mode (a plain target: one thread).
; RUN: ptxcc-opt --passes=kernel-formation %s 2>&1 | FileCheck %s
target triple = "nvptx64-nvidia-cuda"
%struct.ident_t = type { i32, i32, i32, i32, ptr }
@.str = private constant [16 x i8] c";o.c;vm;4;1;;\00\00\00"
@loc = private constant %struct.ident_t { i32 0, i32 2, i32 0, i32 20, ptr @.str }
define void @__omp_offloading_1_2_main_l9(ptr %p) {
  call void @vec_mult(ptr %p)
  ret void
}
; CHECK-LABEL: define internal void @vec_mult(ptr %p) {
; CHECK: call void @vec_mult.omp_outlined(ptr %ptxcc.gtid, ptr %ptxcc.gtid, ptr %p)
; CHECK-NOT: __kmpc_fork_call
; CHECK: ret void
define internal void @vec_mult(ptr %p) {
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr @loc, i32 1, ptr @vec_mult.omp_outlined, ptr %p)
  ret void
}
; CHECK-LABEL: define internal void @vec_mult.omp_outlined(
; CHECK-SAME: #[[SINGLE:[0-9]+]]
; CHECK-NEXT: store i32 1, ptr %p
; CHECK-NEXT: ret void
define internal void @vec_mult.omp_outlined(ptr %g, ptr %b, ptr %p) {
  store i32 1, ptr %p
  call void @__kmpc_barrier(ptr @loc, i32 0)
  ret void
}
declare void @__kmpc_fork_call(ptr, i32, ptr, ...)
declare void @__kmpc_barrier(ptr, i32)
; CHECK: attributes #[[SINGLE]] = { "ptxcc-threads"="single" }
; CHECK: !ptxcc.kernels = !{![[K:[0-9]+]]}
; CHECK: o.c:4:1: parallel region in 'vec_mult', outside the target region: runs on the thread that calls the function
; CHECK: ![[K]] = !{!"__omp_offloading_1_2_main_l9", i32 3
