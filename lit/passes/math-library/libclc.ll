; C math calls in device code are renamed to libclc's overloads and linked from libclc.
; RUN: ptxcc-opt --passes=math-library --math-library=libclc %s | FileCheck %s
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define void @k(
; CHECK: call double @_Z3sind(double
; CHECK: call float @_Z3sinf(float
; CHECK: call float @_Z3powff(float {{.*}}, float
; CHECK: call double @_Z4fmaxdd(double
; CHECK: call double @_Z5ldexpdi(double {{.*}}, i32
define void @k(ptr %p, double %x, float %y) {
  %a = call double @sin(double %x)
  %b = call float @sinf(float %y)
  %c = call float @powf(float %y, float 2.0)
  %d = call double @fmax(double %x, double %a)
  %e = call double @ldexp(double %x, i32 3)
  store double %e, ptr %p
  ret void
}
declare double @sin(double)
declare float @sinf(float)
declare float @powf(float, float)
declare double @fmax(double, double)
declare double @ldexp(double, i32)
; CHECK-DAG: define linkonce_odr {{.*}}double @_Z3sind(double
; CHECK-DAG: define linkonce_odr {{.*}}float @_Z3powff(float
