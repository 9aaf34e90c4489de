; What a nested parallel region in a target region cannot be: a third level, or one whose
; number of threads is not a constant (its threads are lanes of a warp).
; RUN: split-file %s %t
; RUN: not ptxcc-opt --passes=kernel-formation %t/depth.ll 2>&1 | FileCheck %s --check-prefix=DEPTH
; RUN: not ptxcc-opt --passes=kernel-formation %t/count.ll 2>&1 | FileCheck %s --check-prefix=COUNT
; DEPTH: n.c:9:1: error: ptxcc supports two levels of parallel regions in a target region (workers and their vector lanes); this one is a third
; COUNT: n.c:9:1: error: ptxcc needs a constant, positive num_threads on a parallel region nested in a parallel region of a target region: its threads are lanes of a warp (at most 32)

;--- depth.ll
target triple = "nvptx64-nvidia-cuda"
%struct.ident_t = type { i32, i32, i32, i32, ptr }
@.str = private constant [16 x i8] c";n.c;f;9;1;;\00\00\00\00"
@loc = private constant %struct.ident_t { i32 0, i32 2, i32 0, i32 20, ptr @.str }
define void @__omp_offloading_1_2_f_l8(ptr %p) {
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr null, i32 1, ptr @outer, ptr %p)
  ret void
}
define internal void @outer(ptr %g, ptr %b, ptr %p) {
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr null, i32 1, ptr @middle, ptr %p)
  ret void
}
define internal void @middle(ptr %g, ptr %b, ptr %p) {
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr @loc, i32 1, ptr @inner, ptr %p)
  ret void
}
define internal void @inner(ptr %g, ptr %b, ptr %p) {
  ret void
}
declare void @__kmpc_fork_call(ptr, i32, ptr, ...)

;--- count.ll
target triple = "nvptx64-nvidia-cuda"
%struct.ident_t = type { i32, i32, i32, i32, ptr }
@.str = private constant [16 x i8] c";n.c;f;9;1;;\00\00\00\00"
@loc = private constant %struct.ident_t { i32 0, i32 2, i32 0, i32 20, ptr @.str }
define void @__omp_offloading_1_2_f_l8(ptr %p, i64 %n) {
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr null, i32 2, ptr @outer, ptr %p, i64 %n)
  ret void
}
define internal void @outer(ptr %g, ptr %b, ptr %p, i64 %n) {
  %n32 = trunc i64 %n to i32
  call void @__kmpc_push_num_threads(ptr @loc, i32 0, i32 %n32)
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr @loc, i32 1, ptr @inner, ptr %p)
  ret void
}
define internal void @inner(ptr %g, ptr %b, ptr %p) {
  ret void
}
declare void @__kmpc_fork_call(ptr, i32, ptr, ...)
declare void @__kmpc_push_num_threads(ptr, i32, i32)
