; A schedule kind the GPU mapping does not implement is reported at the loop's source line.
; RUN: not ptxcc-opt --passes=loop-mapping %s 2>&1 | FileCheck %s
; CHECK: l.c:12:3: error: ptxcc does not support loop schedule kind 36 in target regions; use schedule(static) or schedule(static, N)
target triple = "nvptx64-nvidia-cuda"
%struct.ident_t = type { i32, i32, i32, i32, ptr }
@.str = private constant [15 x i8] c";l.c;f;12;3;;\00\00"
@loc = private constant %struct.ident_t { i32 0, i32 2, i32 0, i32 20, ptr @.str }
define void @f(ptr %lb, ptr %ub, ptr %st, ptr %last) {
  call void @__kmpc_for_static_init_4(ptr @loc, i32 0, i32 36, ptr %last, ptr %lb, ptr %ub, ptr %st, i32 1, i32 1)
  ret void
}
declare void @__kmpc_for_static_init_4(ptr, i32, i32, ptr, ptr, ptr, ptr, i32, i32)
