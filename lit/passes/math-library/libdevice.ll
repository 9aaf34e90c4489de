; With CUDA's libdevice found (or -fptxcc-math-library=libdevice), each C math call is its __nv_
; function of the same signature (frexp, modf and remquo with their generic pointers, scalbn as
; itself), linked internal: what nothing calls is gone before optimisation. libdevice's
; __nvvm_reflect queries are answered when the PTX is made (NVVMReflect in the NVPTX pipeline).
; lround and the other integer roundings are inline, as with libclc.
; REQUIRES: libdevice
; RUN: ptxcc-opt --passes=math-library --math-library=libdevice %s | FileCheck %s
; RUN: ptxcc-opt --passes=math-library,nvptx-codegen --math-library=libdevice %s | FileCheck %s --check-prefix=PTX
; Without a libdevice, asking for it is an error that says what to do.
; RUN: env PTXCC_LIBDEVICE=/nonexistent/libdevice.10.bc not ptxcc-opt --passes=math-library --math-library=libdevice %s 2>&1 | FileCheck %s --check-prefix=MISSING
; MISSING: ptxcc-opt: error: PTXCC_LIBDEVICE names '/nonexistent/libdevice.10.bc', which does not exist
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define void @k(
; CHECK: call double @__nv_sin(double %x)
; CHECK: call float @__nv_sinf(float %y)
; CHECK: call float @__nv_powf(float %y, float 2.000000e+00)
; CHECK: call double @__nv_fmax(double %x, double
; CHECK: call double @__nv_frexp(double %x, ptr %e)
; CHECK: call float @__nv_modff(float %y, ptr %fp)
; CHECK: call double @__nv_remquo(double %x, double 3.000000e+00, ptr %e)
; CHECK: call double @__nv_scalbn(double %x, i32 4)
; CHECK: call double @llvm.round.f64(double %x)
; CHECK-DAG: define internal double @__nv_sin(double
; CHECK-DAG: define internal float @__nv_powf(float
; CHECK-DAG: define internal double @__nv_remquo(double
; CHECK-NOT: define {{.*}}@__nv_cos(
; CHECK-NOT: define {{.*}}@__nv_tgamma(
; PTX: .entry k(
; PTX-NOT: __nvvm_reflect
; PTX-NOT: .func {{.*}}__nv_
; PTX: ret;
define void @k(ptr %p, ptr %e, ptr %fp, double %x, float %y) {
  %a = call double @sin(double %x)
  %b = call float @sinf(float %y)
  %c = call float @powf(float %y, float 2.0)
  %d = call double @fmax(double %x, double %a)
  %f = call double @frexp(double %x, ptr %e)
  %g = call float @modff(float %y, ptr %fp)
  %h = call double @remquo(double %x, double 3.0, ptr %e)
  %i = call double @scalbn(double %x, i32 4)
  %l = call i64 @lround(double %x)
  %s1 = fadd double %d, %f
  %s2 = fadd double %s1, %h
  %s3 = fadd double %s2, %i
  store double %s3, ptr %p
  %q = getelementptr float, ptr %p, i64 2
  %t = fadd float %b, %c
  %t2 = fadd float %t, %g
  store float %t2, ptr %q
  %r = getelementptr i64, ptr %p, i64 2
  store i64 %l, ptr %r
  ret void
}
declare double @sin(double)
declare float @sinf(float)
declare float @powf(float, float)
declare double @fmax(double, double)
declare double @frexp(double, ptr)
declare float @modff(float, ptr)
declare double @remquo(double, double, ptr)
declare double @scalbn(double, i32)
declare i64 @lround(double)
!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}
