; The code of a target or teams region outside its parallel regions ("ptxcc-threads"="team")
; runs in every thread of the block, but OpenMP sees the team's initial thread alone: thread 0
; of 1, level 0, not in parallel. omp_get_max_threads stays the block's size (what a parallel
; region there would get).
; RUN: ptxcc-opt --passes=device-builtins %s | FileCheck %s
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define i32 @team_code(
; CHECK-NOT: sreg.tid.x
; CHECK: %[[MT:[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
; CHECK-NOT: sreg
; CHECK: %s1 = add i32 0, 1
; CHECK: %s2 = add i32 %s1, 0
; CHECK: %s3 = add i32 %s2, 0
; CHECK: %s4 = add i32 %s3, %[[MT]]
; CHECK-NOT: @omp_
define i32 @team_code() "ptxcc-threads"="team" {
  %t = call i32 @omp_get_thread_num()
  %nt = call i32 @omp_get_num_threads()
  %l = call i32 @omp_get_level()
  %p = call i32 @omp_in_parallel()
  %mt = call i32 @omp_get_max_threads()
  %s1 = add i32 %t, %nt
  %s2 = add i32 %s1, %l
  %s3 = add i32 %s2, %p
  %s4 = add i32 %s3, %mt
  ret i32 %s4
}

; In a parallel region (no attribute: the block's threads) they read the launch.
; CHECK-LABEL: define i32 @parallel_code(
; CHECK: call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
; CHECK: call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
define i32 @parallel_code() {
  %t = call i32 @omp_get_thread_num()
  %nt = call i32 @omp_get_num_threads()
  %s = add i32 %t, %nt
  ret i32 %s
}
declare i32 @omp_get_thread_num()
declare i32 @omp_get_num_threads()
declare i32 @omp_get_level()
declare i32 @omp_in_parallel()
declare i32 @omp_get_max_threads()
