; Worker code that cannot run in every lane of a warp (here an atomic update) keeps one thread per
; worker, and its nested parallel region runs on that thread alone ("single"), as LLVM's OpenMP
; device runtime runs nested regions; -fptxcc-info says why. Its barrier synchronises nothing.
; RUN: ptxcc-opt --passes=kernel-formation %s 2>&1 | FileCheck %s
target triple = "nvptx64-nvidia-cuda"
%struct.ident_t = type { i32, i32, i32, i32, ptr }
@.str = private constant [16 x i8] c";n.c;f;9;1;;\00\00\00\00"
@loc = private constant %struct.ident_t { i32 0, i32 2, i32 0, i32 20, ptr @.str }
define void @__omp_offloading_1_2_f_l8(ptr %p) {
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr null, i32 1, ptr @worker, ptr %p)
  ret void
}
; CHECK-LABEL: define internal void @worker(ptr %g, ptr %b, ptr %p) {
; CHECK: atomicrmw add ptr %p, i32 1 monotonic
; CHECK-NEXT: call void @lanes(ptr %ptxcc.gtid, ptr %ptxcc.gtid, ptr %p)
; CHECK-NEXT: ret void
define internal void @worker(ptr %g, ptr %b, ptr %p) {
  atomicrmw add ptr %p, i32 1 monotonic
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr @loc, i32 1, ptr @lanes, ptr %p)
  ret void
}
; CHECK-LABEL: define internal void @lanes(
; CHECK-SAME: #[[SINGLE:[0-9]+]]
; CHECK-NEXT: ret void
define internal void @lanes(ptr %g, ptr %b, ptr %p) {
  call void @__kmpc_barrier(ptr @loc, i32 0)
  ret void
}
declare void @__kmpc_fork_call(ptr, i32, ptr, ...)
declare void @__kmpc_barrier(ptr, i32)
; CHECK: attributes #[[SINGLE]] = { "ptxcc-threads"="single" }
; CHECK: n.c:9:1: nested parallel region (vector loop) runs sequentially in each thread of its parallel region (worker): the worker's code has an atomic update
