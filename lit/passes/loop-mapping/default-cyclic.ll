; A 'for' schedule without the monotonic modifier (no schedule clause) is dealt cyclically: the
; thread starts at lb0 + tid.x and clang's unit increment of the loop's .omp.iv becomes ntid.x.
; With the modifier (an explicit schedule(static)) the thread gets one contiguous block.
; RUN: ptxcc-opt --passes=loop-mapping %s | FileCheck %s
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define void @by_default(
; CHECK: %ptxcc.lb = add i32 %ptxcc.lb0, %{{[0-9]+}}
; CHECK: store i32 %ptxcc.lb, ptr %lb
; CHECK: store i32 %ptxcc.ub0, ptr %ub
; CHECK: latch:
; CHECK: %[[STEP:.*]] = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
; CHECK-NEXT: %next = add i32 %i, %[[STEP]]
define void @by_default(ptr %lb, ptr %ub, ptr %st, ptr %last, ptr %out) {
entry:
  %iv = alloca i32
  call void @__kmpc_for_static_init_4(ptr null, i32 0, i32 34, ptr %last, ptr %lb, ptr %ub, ptr %st, i32 1, i32 1)
  %l = load i32, ptr %lb
  store i32 %l, ptr %iv
  br label %cond
cond:
  %c = load i32, ptr %iv
  %u = load i32, ptr %ub
  %in = icmp sle i32 %c, %u
  br i1 %in, label %latch, label %exit
latch:
  %i = load i32, ptr %iv
  store i32 %i, ptr %out
  %next = add nsw i32 %i, 1
  store i32 %next, ptr %iv
  br label %cond
exit:
  ret void
}

; CHECK-LABEL: define void @explicit_static(
; CHECK: udiv i32
; CHECK: %next = add nsw i32 %i, 1
define void @explicit_static(ptr %lb, ptr %ub, ptr %st, ptr %last, ptr %out) {
entry:
  %iv = alloca i32
  call void @__kmpc_for_static_init_4(ptr null, i32 0, i32 536870946, ptr %last, ptr %lb, ptr %ub, ptr %st, i32 1, i32 1)
  %l = load i32, ptr %lb
  store i32 %l, ptr %iv
  br label %cond
cond:
  %c = load i32, ptr %iv
  %u = load i32, ptr %ub
  %in = icmp sle i32 %c, %u
  br i1 %in, label %latch, label %exit
latch:
  %i = load i32, ptr %iv
  store i32 %i, ptr %out
  %next = add nsw i32 %i, 1
  store i32 %next, ptr %iv
  br label %cond
exit:
  ret void
}
declare void @__kmpc_for_static_init_4(ptr, i32, i32, ptr, ptr, ptr, ptr, i32, i32)
