; With libdevice, sin(x) and cos(x) of one x in one block become one __nv_sincos(x, &s, &c)
; where the first of them was (float: __nv_sincosf): libdevice reduces the argument once.
; The argument may be reloaded from one stack slot for each call (clang's unoptimised code), as
; long as nothing writes the slot between (a store elsewhere does not: the slot is private). Calls of different arguments, in different blocks, or with a
; store between the reloads stay apart.
; REQUIRES: libdevice
; RUN: ptxcc-opt --passes=math-library --math-library=libdevice %s | FileCheck %s
; With libclc nothing is fused.
; RUN: ptxcc-opt --passes=math-library --math-library=libclc %s | FileCheck %s --check-prefix=CLC
; CLC: call double @_Z3cosd(double %phi)
; CLC-NOT: call void @__nv_sincos
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define void @rotate(
; CHECK-DAG: %ptxcc.sin = alloca double
; CHECK-DAG: %ptxcc.cos = alloca double
; CHECK-DAG: %ptxcc.sin1 = alloca float
; CHECK: call void @__nv_sincos(double %phi, ptr %ptxcc.sin, ptr %ptxcc.cos)
; CHECK-NEXT: %ptxcc.sin.v = load double, ptr %ptxcc.sin
; CHECK-NEXT: %ptxcc.cos.v = load double, ptr %ptxcc.cos
; CHECK-NEXT: store double %ptxcc.cos.v, ptr %p
; CHECK: %neg = fneg double %ptxcc.sin.v
; CHECK: call void @__nv_sincosf(float %t, ptr %ptxcc.sin{{[0-9]*}}, ptr %ptxcc.cos{{[0-9]*}})
; CHECK: call double @__nv_sin(double %other)
; CHECK: later:
; CHECK: call double @__nv_cos(double %other)
; CHECK-LABEL: define void @reloads(
; CHECK: %x1 = load double, ptr %slot
; CHECK-NEXT: call void @__nv_sincos(double %x1,
; CHECK-NOT: call double @__nv_cos(
; CHECK-LABEL: define void @written_between(
; CHECK: call double @__nv_sin(double %y1)
; CHECK: store double 2.000000e+00
; CHECK: call double @__nv_cos(double %y2)
; CHECK: define internal void @__nv_sincos(
define void @rotate(ptr %p, double %phi, float %t, double %other) {
  %c = call double @cos(double %phi)
  store double %c, ptr %p
  %s = call double @sin(double %phi)
  %neg = fneg double %s
  %q = getelementptr double, ptr %p, i64 1
  store double %neg, ptr %q
  %sf = call float @sinf(float %t)
  %cf = call float @cosf(float %t)
  %sum = fadd float %sf, %cf
  %r = getelementptr float, ptr %p, i64 4
  store float %sum, ptr %r
  %so = call double @sin(double %other)
  %u = getelementptr double, ptr %p, i64 3
  store double %so, ptr %u
  br label %later
later:
  %co = call double @cos(double %other)
  %v = getelementptr double, ptr %p, i64 4
  store double %co, ptr %v
  ret void
}
define void @reloads(ptr %p, double %phi) {
  %slot = alloca double
  store double %phi, ptr %slot
  %x1 = load double, ptr %slot
  %s = call double @sin(double %x1)
  store double %s, ptr %p
  %x2 = load double, ptr %slot
  %c = call double @cos(double %x2)
  %t = fadd double %s, %c
  store double %t, ptr %p
  ret void
}
define void @written_between(ptr %p, double %phi) {
  %slot = alloca double
  store double %phi, ptr %slot
  %y1 = load double, ptr %slot
  %s = call double @sin(double %y1)
  store double 2.0, ptr %slot
  %y2 = load double, ptr %slot
  %c = call double @cos(double %y2)
  %t = fadd double %s, %c
  store double %t, ptr %p
  ret void
}
declare double @sin(double)
declare double @cos(double)
declare float @sinf(float)
declare float @cosf(float)
