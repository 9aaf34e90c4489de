; compiler-rt's complex multiply and divide become inline arithmetic shaped like the host ABI's
; return value (<2 x float> for float, { double, double } for double).
; RUN: ptxcc-opt --passes=device-builtins %s | FileCheck %s
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define <2 x float> @mul(
; CHECK: %ptxcc.re = fsub float
; CHECK: %ptxcc.im = fadd float
; CHECK: insertelement <2 x float> poison, float %ptxcc.re, i32 0
; CHECK: insertelement <2 x float> {{.*}}, float %ptxcc.im, i32 1
; CHECK-NOT: __mulsc3
define <2 x float> @mul(float %a, float %b, float %c, float %d) {
  %r = call <2 x float> @__mulsc3(float %a, float %b, float %c, float %d)
  ret <2 x float> %r
}
; CHECK-LABEL: define { double, double } @div(
; CHECK: call double @llvm.fabs.f64(double %c)
; CHECK: call double @llvm.fabs.f64(double %d)
; CHECK: fcmp oge double
; CHECK: %ptxcc.re = select i1
; CHECK: %ptxcc.im = select i1
; CHECK: insertvalue { double, double } poison, double %ptxcc.re, 0
; CHECK: insertvalue { double, double } {{.*}}, double %ptxcc.im, 1
; CHECK-NOT: __divdc3
define { double, double } @div(double %a, double %b, double %c, double %d) {
  %r = call { double, double } @__divdc3(double %a, double %b, double %c, double %d)
  ret { double, double } %r
}
declare <2 x float> @__mulsc3(float, float, float, float)
declare { double, double } @__divdc3(double, double, double, double)
