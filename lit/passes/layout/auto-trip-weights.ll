; -fptxcc-layout=auto, device side: each access weighs the constant trip counts of the loops
; around it in the kernel (passes/src/layout/trips.rs). w[k][c], read in `for (c = 0; c < 16;
; c++)`, moves along dimension 1 with the lanes (k is the threads' counter) and weighs 16;
; w[3][k], read once, moves along the innermost dimension and weighs 1. Counted once each the
; two disagree; weighted, dimension 1 wins 16 of 17 and w[40][16] becomes [16][40]. v's two
; accesses, in a loop whose bound is not a constant (a parameter), weigh 1 each and disagree.
; The threads' own loop (its counter starts from tid.x) weighs nothing.
; RUN: ptxcc-opt --passes=layout %s | FileCheck %s
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @kernel(ptr %w, ptr %v, ptr %out, i32 %m) #0 {
entry:
  %iv = alloca i32
  %c.addr = alloca i32
  %e.addr = alloca i32
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  store i32 %tid, ptr %iv
  br label %loop

loop:
  %k = load i32, ptr %iv
  %k64 = sext i32 %k to i64
  %o = getelementptr inbounds float, ptr %out, i64 %k64
  store i32 0, ptr %c.addr
  br label %inner

inner:
  %c = load i32, ptr %c.addr
  %more.c = icmp slt i32 %c, 16
  br i1 %more.c, label %inner.body, label %after

inner.body:
  %c64 = sext i32 %c to i64
; CHECK: getelementptr inbounds [40 x float], ptr %w, i64 %c64, i64 %k64
  %p = getelementptr inbounds [40 x [16 x float]], ptr %w, i64 0, i64 %k64, i64 %c64
  %x = load float, ptr %p, align 4
  store float %x, ptr %o, align 4
  %c.next = add nsw i32 %c, 1
  store i32 %c.next, ptr %c.addr
  br label %inner

after:
; CHECK: getelementptr inbounds [40 x float], ptr %w, i64 %k64, i64 3
  %q = getelementptr inbounds [40 x [16 x float]], ptr %w, i64 0, i64 3, i64 %k64
  %y = load float, ptr %q, align 4
  store float %y, ptr %o, align 4
  store i32 0, ptr %e.addr
  br label %vloop

vloop:
  %e = load i32, ptr %e.addr
  %more.e = icmp slt i32 %e, %m
  br i1 %more.e, label %vbody, label %next

vbody:
  %e64 = sext i32 %e to i64
  %v1 = getelementptr inbounds [40 x [16 x float]], ptr %v, i64 0, i64 %k64, i64 %e64
  %v2 = getelementptr inbounds [40 x [16 x float]], ptr %v, i64 0, i64 %e64, i64 %k64
  %a = load float, ptr %v1, align 4
  store float %a, ptr %v2, align 4
  %e.next = add nsw i32 %e, 1
  store i32 %e.next, ptr %e.addr
  br label %vloop

next:
  %k.next = add i32 %k, 128
  store i32 %k.next, ptr %iv
  %more = icmp slt i32 %k.next, 40
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

attributes #0 = { "ptxcc-layout"="0=w;40,16;auto;x.c:3:1|1=v;40,16;auto;x.c:3:1" }

; CHECK-DAG: !{!"x.c:3:1: layout: w[40][16] -> [16][40] (coalesced on dimension 1: 1 of 2 accesses; 16 of 17 weighted by their loops' trip counts)"}
; CHECK-DAG: !{!"x.c:3:1: layout: v[40][16] stays: its accesses disagree (consecutive threads move along dimension 2 in only 1 of 2)"}
