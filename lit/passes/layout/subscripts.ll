; C subscripts a[i][j][k] of the described extents keep the multi-dimensional form, permuted
; ([1,3,2]: a[8][6][5] lives as a[8][5][6]); the array is followed through the local clang
; keeps it in and into the outlined function it is passed to.
; RUN: ptxcc-opt --passes=layout %s | FileCheck %s
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @kernel(ptr %a, i32 %i) #0 {
  %slot = alloca ptr
  store ptr %a, ptr %slot
  %b = load ptr, ptr %slot
  call void @outlined(ptr %b, i32 %i, i64 2)
  ret void
}

; CHECK-LABEL: define internal void @outlined(
define internal void @outlined(ptr %a, i32 %i, i64 %k) {
  %i64 = sext i32 %i to i64
  %p = getelementptr inbounds [8 x [6 x [5 x double]]], ptr %a, i64 0, i64 %i64
  %q = getelementptr inbounds [6 x [5 x double]], ptr %p, i64 0, i64 3
  %r = getelementptr inbounds [5 x double], ptr %q, i64 0, i64 %k
; The alignment of the original layout (16 here) is not the new one's: the element's.
; CHECK: %[[E:.*]] = getelementptr inbounds [5 x [6 x double]], ptr %a, i64 %i64, i64 %k, i64 3
; CHECK-NEXT: %v = load double, ptr %[[E]], align 8
  %v = load double, ptr %r, align 16
  %w = fadd double %v, 1.0
; CHECK: %[[F:.*]] = getelementptr inbounds [5 x [6 x double]], ptr %a, i64 %i64, i64 %k, i64 3
; CHECK-NEXT: store double %w, ptr %[[F]]
  store double %w, ptr %r
; Element 0 stays element 0.
; CHECK: store double 0.000000e+00, ptr %a
  store double 0.0, ptr %a
  ret void
}

attributes #0 = { "ptxcc-layout"="0=a;8,6,5;1,3,2;l.c:3:9" }
