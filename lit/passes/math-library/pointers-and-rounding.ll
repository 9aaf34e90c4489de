; frexp, modf and remquo take a pointer (int * for the exponent or quotient, a pointer to the
; argument's type for the integral part): they map to libclc's overloads on generic pointers.
; scalbn is libclc's ldexp. lround/lrint and their ll/f forms, which libclc lacks, become
; llvm.round/llvm.rint and a conversion to the result's integer type.
; RUN: ptxcc-opt --passes=math-library --math-library=libclc %s | FileCheck %s
; RUN: ptxcc-opt --passes=math-library,nvptx-codegen --math-library=libclc %s | FileCheck %s --check-prefix=PTX
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define void @k(
; CHECK: call double @_Z5frexpdPi(double %x, ptr %e)
; CHECK: call float @_Z4modffPf(float %y, ptr %fp)
; CHECK: call double @_Z6remquoddPi(double %x, double 3.000000e+00, ptr %e)
; CHECK: call double @_Z5ldexpdi(double %x, i32 4)
; CHECK: %[[R:[0-9]+]] = call double @llvm.round.f64(double %x)
; CHECK-NEXT: %lround = fptosi double %[[R]] to i64
; CHECK: %[[RI:[0-9]+]] = call float @llvm.rint.f32(float %y)
; CHECK-NEXT: %lrintf = fptosi float %[[RI]] to i64
; CHECK: %[[RL:[0-9]+]] = call double @llvm.round.f64(double %x)
; CHECK-NEXT: %llround = fptosi double %[[RL]] to i64
; CHECK-NOT: @lround(
; CHECK-DAG: define linkonce_odr {{.*}}double @_Z5frexpdPi(
; CHECK-DAG: define linkonce_odr {{.*}}float @_Z4modffPf(
; PTX: .entry k(
; PTX: cvt.rni.f32.f32
; PTX: cvt.rzi.s64.f32
define void @k(ptr %p, ptr %e, ptr %fp, double %x, float %y) {
  %a = call double @frexp(double %x, ptr %e)
  %b = call float @modff(float %y, ptr %fp)
  %c = call double @remquo(double %x, double 3.0, ptr %e)
  %d = call double @scalbn(double %x, i32 4)
  %l = call i64 @lround(double %x)
  %m = call i64 @lrintf(float %y)
  %n = call i64 @llround(double %x)
  %s1 = fadd double %a, %c
  %s2 = fadd double %s1, %d
  store double %s2, ptr %p
  %q = getelementptr i64, ptr %p, i64 1
  %t1 = add i64 %l, %m
  %t2 = add i64 %t1, %n
  store i64 %t2, ptr %q
  %r = getelementptr float, ptr %p, i64 4
  store float %b, ptr %r
  ret void
}
declare double @frexp(double, ptr)
declare float @modff(float, ptr)
declare double @remquo(double, double, ptr)
declare double @scalbn(double, i32)
declare i64 @lround(double)
declare i64 @lrintf(float)
declare i64 @llround(double)
!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}
