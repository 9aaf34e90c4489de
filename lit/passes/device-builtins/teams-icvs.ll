; The device's nteams-var and teams-thread-limit-var ICVs: their initial value, 0 (OpenMP 5.2
; section 2.1; the routines that set them cannot be called in a target region).
; RUN: ptxcc-opt --passes=device-builtins %s | FileCheck %s
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define i32 @icvs(
; CHECK-NEXT: %s = add i32 0, 0
; CHECK-NEXT: ret i32 %s
; CHECK-NOT: @omp_get_
define i32 @icvs() {
  %m = call i32 @omp_get_max_teams()
  %l = call i32 @omp_get_teams_thread_limit()
  %s = add i32 %m, %l
  ret i32 %s
}
declare i32 @omp_get_max_teams()
declare i32 @omp_get_teams_thread_limit()
