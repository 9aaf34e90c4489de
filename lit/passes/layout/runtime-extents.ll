; Run-time extents: a[?][?][4] (a;?,?,4) with [1,3,2] → device a[?][4][?]. The extents are
; loaded from the layout's extents global (invariant loads: LLVM hoists them), the flat
; index is split by them and recombined: x0 = lin / (ny*4), x1 = (lin / 4) % ny,
; x2 = lin % 4; offset x0*(4*ny) + x1 + x2*ny.
; RUN: ptxcc-opt --passes=layout %s | FileCheck %s
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; The device copy of the extents global, as device extraction names it.
@__ptxcc_static_1234___ptxcc_layout_ext_7c5baa72d9c73e0a = global [3 x i64] zeroinitializer, align 8

define void @kernel(ptr %b, i64 %lin) #0 {
  %p = getelementptr inbounds float, ptr %b, i64 %lin
; CHECK: %[[L:.*]] = add i64 0, %lin
; CHECK: %[[NY:.*]] = load i64, ptr getelementptr inbounds (i64, ptr @__ptxcc_static_1234___ptxcc_layout_ext_7c5baa72d9c73e0a, i64 1), align 8, !invariant.load
; CHECK: %[[S0:.*]] = mul i64 4, %[[NY]]
; CHECK: %[[DS0:.*]] = mul i64 %[[NY]], 4
; CHECK: %[[X0:.*]] = udiv i64 %[[L]], %[[S0]]
; CHECK: %[[M0:.*]] = mul i64 %[[X0]], %[[DS0]]
; CHECK: %[[Q1:.*]] = udiv i64 %[[L]], 4
; CHECK: %[[X1:.*]] = urem i64 %[[Q1]], %[[NY]]
; CHECK: %[[X2:.*]] = urem i64 %[[L]], 4
; CHECK: %[[M2:.*]] = mul i64 %[[X2]], %[[NY]]
; CHECK: %[[E:.*]] = getelementptr inbounds float, ptr %b, i64 %{{.*}}
; CHECK-NEXT: store float 1.000000e+00, ptr %[[E]], align 4
  store float 1.0, ptr %p, align 16
  ret void
}

attributes #0 = { "ptxcc-layout"="0=a;?,?,4;1,3,2;l.c:3:9" }

; CHECK: attributes #0
; CHECK: !{!"l.c:3:9: trans: 'a' is a[?][4][?] on the device; 1 access in 1 kernel rewritten"}
