; A failed assert() calls glibc's __assert_fail(expr, file, line, function); on the GPU it is
; CUDA's __assertfail(expr, file, line, function, char size), which prints the message with the
; block and thread, then a trap.
; RUN: ptxcc-opt --passes=device-libc %s | FileCheck %s
; RUN: ptxcc-opt --passes=device-libc,nvptx-codegen %s | FileCheck %s --check-prefix=PTX
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@.str = private constant [7 x i8] c"i < 50\00"
@.file = private constant [5 x i8] c"a.c\00\00"
@__func__ = private constant [5 x i8] c"main\00"

; CHECK-LABEL: define void @k(i32 %i)
; CHECK: fail:
; CHECK-NEXT: call void @__assertfail(ptr @.str, ptr @.file, i32 6, ptr @__func__, i64 1)
; CHECK-NEXT: call void @llvm.trap()
; CHECK-NEXT: unreachable
; CHECK-NOT: @__assert_fail
; PTX: .extern .func __assertfail
; PTX: __assertfail,
; PTX: trap;
define void @k(i32 %i) {
  %ok = icmp slt i32 %i, 50
  br i1 %ok, label %fine, label %fail
fail:
  call void @__assert_fail(ptr @.str, ptr @.file, i32 6, ptr @__func__) #0
  unreachable
fine:
  ret void
}
declare void @__assert_fail(ptr, ptr, i32, ptr) #0
attributes #0 = { noreturn }
!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}
