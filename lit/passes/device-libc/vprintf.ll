; printf in device code becomes CUDA's vprintf(format, buffer): the (already promoted) arguments
; packed one after the other at their natural alignment, in a buffer allocated in the entry block;
; no arguments, a null buffer. The result stays printf's int.
; RUN: ptxcc-opt --passes=device-libc %s | FileCheck %s
; RUN: ptxcc-opt --passes=device-libc,nvptx-codegen %s | FileCheck %s --check-prefix=PTX
target triple = "nvptx64-nvidia-cuda"
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
@.str = private constant [12 x i8] c"%d %g %s %c\00"
@.str2 = private constant [4 x i8] c"hi\0A\00"
@.str3 = private constant [4 x i8] c"%ld\00"

; CHECK-LABEL: define i32 @f(i32 %i, double %x, ptr %s, i64 %l)
; CHECK-NEXT: %[[B2:.*]] = alloca { i64 }
; CHECK-NEXT: %[[B1:.*]] = alloca { i32, double, ptr, i32 }
; CHECK: store i32 %i, ptr %[[G0:.*]]
; CHECK: %[[G1:.*]] = getelementptr inbounds { i32, double, ptr, i32 }, ptr %[[B1]], i32 0, i32 1
; CHECK-NEXT: store double %x, ptr %[[G1]]
; CHECK: store ptr %s
; CHECK: store i32 65
; CHECK: %[[N:.*]] = call i32 @vprintf(ptr @.str, ptr %[[B1]])
; CHECK: call i32 @vprintf(ptr @.str2, ptr null)
; CHECK: store i64 %l
; CHECK: call i32 @vprintf(ptr @.str3, ptr %[[B2]])
; CHECK: ret i32 %[[N]]
; CHECK-NOT: @printf
; PTX: .extern .func  (.param .b32 func_retval0) vprintf
; PTX: call.uni (retval0),
; PTX-NEXT: vprintf,
define i32 @f(i32 %i, double %x, ptr %s, i64 %l) {
  %n = call i32 (ptr, ...) @printf(ptr @.str, i32 %i, double %x, ptr %s, i32 65)
  %m = call i32 (ptr, ...) @printf(ptr @.str2)
  %k = call i32 (ptr, ...) @printf(ptr @.str3, i64 %l)
  ret i32 %n
}
declare i32 @printf(ptr, ...)
