; The alignment of rewritten accesses (passes/src/layout/align.rs). a[4][2][8] of floats laid
; out as [2][8][4] ([3,1,2]): a thread reads a[0..3][i][j], which the device layout puts side
; by side. Each access gets the alignment its new offset proves from a start on a 16-byte
; boundary — 16, 4, 8, 4 — so that LLVM merges the four loads into one <4 x float> load; the
; start's 16 is assumed (and the remark says libptxrt checks it at each launch) only because
; an access gains from it. b[8][6][5] of doubles laid out as [8][5][6] gains nothing (its
; variable innermost subscript steps 8 bytes): the element's alignment, nothing assumed.
; RUN: ptxcc-opt --passes=layout %s | FileCheck %s
; RUN: ptxcc-opt --passes=layout,nvptx-codegen %s | FileCheck %s --check-prefix=PTX
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define void @kernel(
; PTX-LABEL: .func kernel(
define void @kernel(ptr %a, ptr %b, ptr %out, i64 %i, i64 %j, i64 %k) #0 {
; CHECK: %[[E0:.*]] = getelementptr inbounds [8 x [4 x float]], ptr %a, i64 %i, i64 %j, i64 0
; CHECK-NEXT: load float, ptr %[[E0]], align 16
  %p0 = getelementptr inbounds [2 x [8 x float]], ptr %a, i64 0, i64 %i, i64 %j
  %v0 = load float, ptr %p0, align 4
; CHECK: %[[E1:.*]] = getelementptr inbounds [8 x [4 x float]], ptr %a, i64 %i, i64 %j, i64 1
; CHECK-NEXT: load float, ptr %[[E1]], align 4
  %p1 = getelementptr inbounds [2 x [8 x float]], ptr %a, i64 1, i64 %i, i64 %j
  %v1 = load float, ptr %p1, align 4
; CHECK: %[[E2:.*]] = getelementptr inbounds [8 x [4 x float]], ptr %a, i64 %i, i64 %j, i64 2
; CHECK-NEXT: load float, ptr %[[E2]], align 8
  %p2 = getelementptr inbounds [2 x [8 x float]], ptr %a, i64 2, i64 %i, i64 %j
  %v2 = load float, ptr %p2, align 4
; CHECK: %[[E3:.*]] = getelementptr inbounds [8 x [4 x float]], ptr %a, i64 %i, i64 %j, i64 3
; CHECK-NEXT: load float, ptr %[[E3]], align 4
  %p3 = getelementptr inbounds [2 x [8 x float]], ptr %a, i64 3, i64 %i, i64 %j
  %v3 = load float, ptr %p3, align 4
; The four loads become one (NVPTX's load-store vectoriser, in code generation).
; PTX: ld.v4.f32 {%f{{[0-9]+}}, %f{{[0-9]+}}, %f{{[0-9]+}}, %f{{[0-9]+}}}, [%rd{{[0-9]+}}];
; PTX-NOT: ld.f32
  %s01 = fadd float %v0, %v1
  %s23 = fadd float %v2, %v3
  %s = fadd float %s01, %s23
  store float %s, ptr %out, align 4
; CHECK: %[[F:.*]] = getelementptr inbounds [5 x [6 x double]], ptr %b, i64 %i, i64 %k, i64 %j
; CHECK-NEXT: load double, ptr %[[F]], align 8
  %q = getelementptr inbounds [8 x [6 x [5 x double]]], ptr %b, i64 0, i64 %i, i64 %j, i64 %k
  %w = load double, ptr %q, align 16
  %wf = fptrunc double %w to float
  store float %wf, ptr %out, align 4
  ret void
}

attributes #0 = { "ptxcc-layout"="0=a;4,2,8;3,1,2;x.c:3:9|1=b;8,6,5;1,3,2;x.c:4:9" }

; CHECK-DAG: !{!"x.c:3:9: trans: 'a' is a[2][8][4] on the device; 4 accesses in 1 kernel rewritten; they read it in 16-byte vectors, so its device copy must start on a 16-byte boundary (checked at each launch)"}
; CHECK-DAG: !{!"x.c:4:9: trans: 'b' is b[8][5][6] on the device; 1 access in 1 kernel rewritten"}
