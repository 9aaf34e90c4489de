; -fptxcc-layout=auto, device side: an array whose lanes move along a dimension with a small
; block inside it (a[8][40][4] of floats: 16 bytes per k) is coalesced already when each thread
; reads every element of its block: NVPTX's load-store vectorizer joins the four loads into one
; ld.global.v4.f32, and a warp's request covers 32 consecutive blocks with every sector used, as
; in the transposed layout (Himeno's a[I][J][K][4], test-suite/README.md's layout study). So a
; stays. e (two of the four elements read) and d (doubles: a 32-byte block, more than one
; vector access) are transposed: there the lanes' requests leave parts of their sectors unused.
; RUN: ptxcc-opt --passes=layout %s | FileCheck %s
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @kernel(ptr %a, ptr %e, ptr %d, ptr %out) #0 {
entry:
  %iv = alloca i32
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  store i32 %tid, ptr %iv
  br label %loop

loop:
  %n = load i32, ptr %iv
  %i = sdiv i32 %n, 40
  %q40 = mul i32 %i, 40
  %k = sub i32 %n, %q40
  %i64 = sext i32 %i to i64
  %k64 = sext i32 %k to i64
  %a0.p = getelementptr inbounds [8 x [40 x [4 x float]]], ptr %a, i64 0, i64 %i64, i64 %k64, i64 0
  %a0 = load float, ptr %a0.p, align 4
  %a1.p = getelementptr inbounds [8 x [40 x [4 x float]]], ptr %a, i64 0, i64 %i64, i64 %k64, i64 1
  %a1 = load float, ptr %a1.p, align 4
  %a2.p = getelementptr inbounds [8 x [40 x [4 x float]]], ptr %a, i64 0, i64 %i64, i64 %k64, i64 2
  %a2 = load float, ptr %a2.p, align 4
  %a3.p = getelementptr inbounds [8 x [40 x [4 x float]]], ptr %a, i64 0, i64 %i64, i64 %k64, i64 3
  %a3 = load float, ptr %a3.p, align 4
  %e0.p = getelementptr inbounds [8 x [40 x [4 x float]]], ptr %e, i64 0, i64 %i64, i64 %k64, i64 0
  %e0 = load float, ptr %e0.p, align 4
  %e2.p = getelementptr inbounds [8 x [40 x [4 x float]]], ptr %e, i64 0, i64 %i64, i64 %k64, i64 2
  %e2 = load float, ptr %e2.p, align 4
  %d0.p = getelementptr inbounds [8 x [40 x [4 x double]]], ptr %d, i64 0, i64 %i64, i64 %k64, i64 0
  %d0 = load double, ptr %d0.p, align 8
  %d1.p = getelementptr inbounds [8 x [40 x [4 x double]]], ptr %d, i64 0, i64 %i64, i64 %k64, i64 1
  %d1 = load double, ptr %d1.p, align 8
  %d2.p = getelementptr inbounds [8 x [40 x [4 x double]]], ptr %d, i64 0, i64 %i64, i64 %k64, i64 2
  %d2 = load double, ptr %d2.p, align 8
  %d3.p = getelementptr inbounds [8 x [40 x [4 x double]]], ptr %d, i64 0, i64 %i64, i64 %k64, i64 3
  %d3 = load double, ptr %d3.p, align 8
  %s1 = fadd float %a0, %a1
  %s2 = fadd float %a2, %a3
  %s3 = fadd float %s1, %s2
  %s4 = fadd float %e0, %e2
  %s5 = fadd float %s3, %s4
  %t1 = fadd double %d0, %d1
  %t2 = fadd double %d2, %d3
  %t3 = fadd double %t1, %t2
  %t4 = fptrunc double %t3 to float
  %s6 = fadd float %s5, %t4
  %o = getelementptr inbounds float, ptr %out, i32 %n
  store float %s6, ptr %o, align 4
  %next = add i32 %n, 128
  store i32 %next, ptr %iv
  %more = icmp slt i32 %next, 320
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

attributes #0 = { "ptxcc-layout"="0=a;8,40,4;auto;x.c:3:1|1=e;8,40,4;auto;x.c:3:1|2=d;8,40,4;auto;x.c:3:1" }

; CHECK-DAG: !{!"x.c:3:1: layout: a[8][40][4] stays: already coalesced through vector accesses (each thread reads or writes its 16 contiguous bytes of dimension 3 at once: one 16-byte access per thread, every sector used as in the transposed layout)"}
; CHECK-DAG: !{!"x.c:3:1: layout: e[8][40][4] -> [8][4][40] (coalesced on dimension 2: 2 of 2 accesses)"}
; CHECK-DAG: !{!"x.c:3:1: layout: d[8][40][4] -> [8][4][40] (coalesced on dimension 2: 4 of 4 accesses)"}
