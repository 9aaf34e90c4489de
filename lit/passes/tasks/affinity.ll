; task affinity(…) in device code: the hint __kmpc_omp_reg_task_with_affinity goes (its result,
; always 0, becomes 0) and the task runs at once like any device task.
; RUN: ptxcc-opt --passes=tasks %s | FileCheck %s
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define i32 @k(ptr %a, ptr %list)
; CHECK-NOT: __kmpc_omp_reg_task_with_affinity
; CHECK: call i32 @.omp_task_entry.(i32 0, ptr %ptxcc.task)
; CHECK: ret i32 0
define i32 @k(ptr %a, ptr %list) {
  %t = call ptr @__kmpc_omp_task_alloc(ptr null, i32 0, i32 1, i64 44, i64 8, ptr @.omp_task_entry.)
  %sh = load ptr, ptr %t
  store ptr %a, ptr %sh
  %aff = call i32 @__kmpc_omp_reg_task_with_affinity(ptr null, i32 0, ptr %t, i32 1, ptr %list)
  %r = call i32 @__kmpc_omp_task(ptr null, i32 0, ptr %t)
  ret i32 %aff
}

define internal i32 @.omp_task_entry.(i32 %gtid, ptr %task) {
  ret i32 0
}

; CHECK-NOT: declare {{.*}}__kmpc_omp_reg_task_with_affinity
declare ptr @__kmpc_omp_task_alloc(ptr, i32, i32, i64, i64, ptr)
declare i32 @__kmpc_omp_task(ptr, i32, ptr)
declare i32 @__kmpc_omp_reg_task_with_affinity(ptr, i32, ptr, i32, ptr)
