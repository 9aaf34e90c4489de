; OpenMP API routines in device code read the special registers of the launch.
; RUN: ptxcc-opt --passes=device-builtins %s | FileCheck %s
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define i32 @ids(
; CHECK: %[[T:[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
; CHECK: %[[NT:[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
; CHECK: %[[B:[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
; CHECK: %[[NB:[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
; CHECK: add i32 %[[T]], %[[NT]]
; CHECK: add i32 %{{.*}}, %[[B]]
; CHECK: add i32 %{{.*}}, %[[NB]]
; CHECK: add i32 %{{.*}}, 0
; CHECK-NOT: @omp_
define i32 @ids() {
  %t = call i32 @omp_get_thread_num()
  %nt = call i32 @omp_get_num_threads()
  %b = call i32 @omp_get_team_num()
  %nb = call i32 @omp_get_num_teams()
  %h = call i32 @omp_is_initial_device()
  %s1 = add i32 %t, %nt
  %s2 = add i32 %s1, %b
  %s3 = add i32 %s2, %nb
  %s4 = add i32 %s3, %h
  ret i32 %s4
}
declare i32 @omp_get_thread_num()
declare i32 @omp_get_num_threads()
declare i32 @omp_get_team_num()
declare i32 @omp_get_num_teams()
declare i32 @omp_is_initial_device()

; omp.h's host variant of omp_is_initial_device (defined to return 1) means the routine too.
; CHECK-LABEL: define i32 @variant(
; CHECK-NEXT: ret i32 0
; CHECK-NOT: ompvariant
define i32 @variant() {
  %v = call i32 @"omp_is_initial_device$ompvariant$S2$s6$Phost"()
  ret i32 %v
}
define internal i32 @"omp_is_initial_device$ompvariant$S2$s6$Phost"() {
  ret i32 1
}
