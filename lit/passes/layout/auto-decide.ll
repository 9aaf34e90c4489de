; -fptxcc-layout=auto, device side: the rewrite decides an 'auto' description from the
; accesses' subscripts. The worksharing counter %iv starts from the thread's index (tid.x)
; and is incremented; i = iv / 40 and k = iv % 40 (through a local, as clang writes a
; collapsed loop). a[i][k][c] moves along k with the lanes: k becomes innermost,
; a[8][40][4] -> [8][4][40] ([1,3,2]) and the access is rewritten. b[i][k] already moves
; along its innermost dimension and stays; d[k][i] and d[i][k] disagree and d stays.
; RUN: ptxcc-opt --passes=layout %s | FileCheck %s
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @kernel(ptr %a, ptr %b, ptr %d) #0 {
entry:
  %iv = alloca i32
  %lb = alloca i32
  %k.addr = alloca i32
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  store i32 %tid, ptr %lb
  %lb0 = load i32, ptr %lb
  store i32 %lb0, ptr %iv
  br label %loop

loop:
  %n = load i32, ptr %iv
  %i = sdiv i32 %n, 40
  %n2 = load i32, ptr %iv
  %q = sdiv i32 %n2, 40
  %q40 = mul i32 %q, 40
  %kv = sub i32 %n2, %q40
  store i32 %kv, ptr %k.addr
  %k = load i32, ptr %k.addr
  %i64 = sext i32 %i to i64
  %k64 = sext i32 %k to i64
  %p1 = getelementptr inbounds [8 x [40 x [4 x float]]], ptr %a, i64 0, i64 %i64
  %p2 = getelementptr inbounds [40 x [4 x float]], ptr %p1, i64 0, i64 %k64
  %p3 = getelementptr inbounds [4 x float], ptr %p2, i64 0, i64 2
; CHECK: %[[E:.*]] = getelementptr inbounds [4 x [40 x float]], ptr %a, i64 %i64, i64 2, i64 %k64
; CHECK-NEXT: %v = load float, ptr %[[E]], align 4
  %v = load float, ptr %p3, align 8
  %b1 = getelementptr inbounds [8 x [40 x float]], ptr %b, i64 0, i64 %i64
  %b2 = getelementptr inbounds [40 x float], ptr %b1, i64 0, i64 %k64
; CHECK: store float %v, ptr %b2
  store float %v, ptr %b2
  %d1 = getelementptr inbounds [40 x [40 x float]], ptr %d, i64 0, i64 %k64
  %d2 = getelementptr inbounds [40 x float], ptr %d1, i64 0, i64 %i64
; CHECK: store float %v, ptr %d2
  store float %v, ptr %d2
  %e1 = getelementptr inbounds [40 x [40 x float]], ptr %d, i64 0, i64 %i64
  %e2 = getelementptr inbounds [40 x float], ptr %e1, i64 0, i64 %k64
; CHECK: store float %v, ptr %e2
  store float %v, ptr %e2
  %next = add i32 %n, 128
  store i32 %next, ptr %iv
  %more = icmp slt i32 %next, 320
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

attributes #0 = { "ptxcc-layout"="0=a;8,40,4;auto;x.c:3:1|1=b;8,40;auto;x.c:3:1|2=d;40,40;auto;x.c:3:1" }

; CHECK-DAG: !{!"x.c:3:1: layout: a[8][40][4] -> [8][4][40] (coalesced on dimension 2: 1 of 1 accesses)"}
; CHECK-DAG: !{!"x.c:3:1: trans: 'a' is a[8][4][40] on the device; 1 access in 1 kernel rewritten"}
; CHECK-DAG: !{!"x.c:3:1: layout: b[8][40] stays: already coalesced (consecutive threads move along its innermost dimension in 1 of 1 accesses)"}
; CHECK-DAG: !{!"x.c:3:1: layout: d[40][40] stays: its accesses disagree (consecutive threads move along dimension 2 in only 1 of 2)"}
