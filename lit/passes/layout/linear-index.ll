; A flat access b[(i*J + j)*K + k] of a pointer described as b[0:4][0:6][0:5]: the linear
; element index is split exactly by the extents and recombined in the device layout
; [1,3,2] → b[4][5][6]: x0 = lin / 30, x1 = (lin / 5) % 6, x2 = lin % 5, offset x0*30 + x1 + x2*6.
; RUN: ptxcc-opt --passes=layout %s | FileCheck %s
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @kernel(ptr %b, i32 %lin) #0 {
  %idx = sext i32 %lin to i64
  %p = getelementptr inbounds double, ptr %b, i64 %idx
; CHECK: %[[L:.*]] = add i64 0, %idx
; CHECK: %[[X0:.*]] = udiv i64 %[[L]], 30
; CHECK: %[[M0:.*]] = mul i64 %[[X0]], 30
; CHECK: %[[Q1:.*]] = udiv i64 %[[L]], 5
; CHECK: %[[X1:.*]] = urem i64 %[[Q1]], 6
; CHECK: %[[A1:.*]] = add i64 %{{.*}}, %[[X1]]
; CHECK: %[[X2:.*]] = urem i64 %[[L]], 5
; CHECK: %[[M2:.*]] = mul i64 %[[X2]], 6
; CHECK: %[[OFF:.*]] = add i64 %[[A1]], %[[M2]]
; CHECK: %[[E:.*]] = getelementptr inbounds double, ptr %b, i64 %[[OFF]]
; CHECK-NEXT: store double 1.000000e+00, ptr %[[E]]
  store double 1.0, ptr %p
  ret void
}

attributes #0 = { "ptxcc-layout"="0=b;4,6,5;1,3,2;l.c:3:9" }
