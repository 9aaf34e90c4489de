; <complex.h> functions become real arithmetic and real math calls, in the shapes of the host ABI:
; double _Complex as two doubles in and { double, double } out, float _Complex as <2 x float>.
; RUN: ptxcc-opt --passes=complex-math %s | FileCheck %s
target triple = "nvptx64-nvidia-cuda"

; cexp(x + iy) = e^x (cos y + i sin y)
; CHECK-LABEL: define { double, double } @t_exp(double %x, double %y)
; CHECK-NEXT: %[[E:[0-9]+]] = call double @exp(double %x)
; CHECK-NEXT: %[[C:[0-9]+]] = call double @cos(double %y)
; CHECK-NEXT: %[[RE:[0-9]+]] = fmul double %[[E]], %[[C]]
; CHECK-NEXT: %[[S:[0-9]+]] = call double @sin(double %y)
; CHECK-NEXT: %[[IM:[0-9]+]] = fmul double %[[E]], %[[S]]
; CHECK-NEXT: %[[R0:[0-9]+]] = insertvalue { double, double } poison, double %[[RE]], 0
; CHECK-NEXT: %[[R1:[0-9]+]] = insertvalue { double, double } %[[R0]], double %[[IM]], 1
; CHECK-NEXT: ret { double, double } %[[R1]]
define { double, double } @t_exp(double %x, double %y) {
  %r = call { double, double } @cexp(double %x, double %y)
  ret { double, double } %r
}

; cabsf(<2 x float>) = hypotf(re, im)
; CHECK-LABEL: define float @t_abs(<2 x float> %z)
; CHECK-NEXT: %[[RE:[0-9]+]] = extractelement <2 x float> %z, i32 0
; CHECK-NEXT: %[[IM:[0-9]+]] = extractelement <2 x float> %z, i32 1
; CHECK-NEXT: %[[H:[0-9]+]] = call float @hypotf(float %[[RE]], float %[[IM]])
; CHECK-NEXT: ret float %[[H]]
define float @t_abs(<2 x float> %z) {
  %r = call float @cabsf(<2 x float> %z)
  ret float %r
}

; cpowf(z, w) = cexp(w clog z), returned as <2 x float>
; CHECK-LABEL: define <2 x float> @t_pow(<2 x float> %z, <2 x float> %w)
; CHECK: call float @hypotf(
; CHECK: call float @logf(
; CHECK: call float @atan2f(
; CHECK: call float @expf(
; CHECK: insertelement <2 x float>
; CHECK-NOT: @cpowf
define <2 x float> @t_pow(<2 x float> %z, <2 x float> %w) {
  %r = call <2 x float> @cpowf(<2 x float> %z, <2 x float> %w)
  ret <2 x float> %r
}

; CHECK-NOT: declare {{.*}}@cexp(
; CHECK-NOT: declare {{.*}}@cabsf(
declare { double, double } @cexp(double, double)
declare float @cabsf(<2 x float>)
declare <2 x float> @cpowf(<2 x float>, <2 x float>)
