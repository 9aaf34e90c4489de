; A worksharing loop of a function whose space is one thread (a parallel region its if clause
; serialises, "team"; a nested region its worker runs alone, "single") takes the whole range as
; clang gave it: no cyclic stride over ntid.x and no unroll hint (the body of team code holds the
; barriers of its guarded stores, which the unroller cannot copy: it would warn "loop not unrolled").
; RUN: ptxcc-opt --passes=loop-mapping %s | FileCheck %s
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define void @serialised(
; CHECK-NOT: sreg.ntid
; CHECK-NOT: ptxcc.step
; CHECK: %next = add nsw i32 %i, 1
; CHECK-NEXT: store i32 %next, ptr %iv
; CHECK-NEXT: br label %cond{{$}}
define void @serialised(ptr %lb, ptr %ub, ptr %st, ptr %last, ptr %out) "ptxcc-threads"="team" {
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
  call void @llvm.nvvm.barrier0()
  %next = add nsw i32 %i, 1
  store i32 %next, ptr %iv
  br label %cond
exit:
  ret void
}

; CHECK-LABEL: define void @alone(
; CHECK-NOT: sreg.ntid
; CHECK: %next = add nsw i32 %i, 1
; CHECK-NEXT: store i32 %next, ptr %iv
; CHECK-NEXT: br label %cond{{$}}
define void @alone(ptr %lb, ptr %ub, ptr %st, ptr %last, ptr %out) "ptxcc-threads"="single" {
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
declare void @__kmpc_for_static_init_4(ptr, i32, i32, ptr, ptr, ptr, ptr, i32, i32)
declare void @llvm.nvvm.barrier0()
