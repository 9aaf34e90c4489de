; The execution mode follows the fork structure: parallel alone → one team (1), teams alone →
; one thread per team (2), neither → a single thread (3).
; RUN: ptxcc-opt --passes=kernel-formation %s | FileCheck %s
target triple = "nvptx64-nvidia-cuda"

define void @__omp_offloading_1_2_par_l1(ptr %p) {
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr null, i32 1, ptr @par.omp_outlined, ptr %p)
  ret void
}
define internal void @par.omp_outlined(ptr %g, ptr %b, ptr %p) {
  ret void
}

define void @__omp_offloading_1_2_teams_l2(ptr %p) {
  call void (ptr, i32, ptr, ...) @__kmpc_fork_teams(ptr null, i32 1, ptr @teams.omp_outlined, ptr %p)
  ret void
}
; Teams-only code may write memory: one thread per team runs it.
define internal void @teams.omp_outlined(ptr %g, ptr %b, ptr %p) {
  store i32 1, ptr %p
  ret void
}

define void @__omp_offloading_1_2_single_l3(ptr %p) {
  store i32 2, ptr %p
  ret void
}

declare void @__kmpc_fork_teams(ptr, i32, ptr, ...)
declare void @__kmpc_fork_call(ptr, i32, ptr, ...)

; CHECK: !ptxcc.kernels = !{![[A:[0-9]+]], ![[B:[0-9]+]], ![[C:[0-9]+]]}
; CHECK: ![[A]] = !{!"__omp_offloading_1_2_par_l1", i32 1,
; CHECK: ![[B]] = !{!"__omp_offloading_1_2_teams_l2", i32 2,
; CHECK: ![[C]] = !{!"__omp_offloading_1_2_single_l3", i32 3,
