; A parallel region inside a parallel region would need threads the launch does not have.
; RUN: not ptxcc-opt --passes=kernel-formation %s 2>&1 | FileCheck %s
; CHECK: n.c:9:1: error: ptxcc does not support nested parallel regions inside a target region
target triple = "nvptx64-nvidia-cuda"
%struct.ident_t = type { i32, i32, i32, i32, ptr }
@.str = private constant [16 x i8] c";n.c;f;9;1;;\00\00\00\00"
@loc = private constant %struct.ident_t { i32 0, i32 2, i32 0, i32 20, ptr @.str }
define void @__omp_offloading_1_2_f_l8(ptr %p) {
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr null, i32 1, ptr @outer, ptr %p)
  ret void
}
define internal void @outer(ptr %g, ptr %b, ptr %p) {
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr @loc, i32 1, ptr @inner, ptr %p)
  ret void
}
define internal void @inner(ptr %g, ptr %b, ptr %p) {
  ret void
}
declare void @__kmpc_fork_call(ptr, i32, ptr, ...)
