; Device tasks are undeferred: __kmpc_omp_task_alloc becomes a zeroed stack slot of the creating
; function (task, then its shareds at the next 8-byte boundary; task->shareds and task->routine
; set), __kmpc_omp_task / _with_deps a direct call of the task's entry, and taskgroup and if(0)
; bookkeeping goes. The task body's call through the privates-map parameter becomes direct.
; RUN: ptxcc-opt --passes=tasks %s | FileCheck %s
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define void @k(ptr %a)
; CHECK-NEXT: %ptxcc.task = alloca [56 x i8], align 16
; CHECK-NOT: __kmpc_taskgroup
; CHECK: call void @llvm.memset.p0.i64(ptr align 16 %ptxcc.task, i8 0, i64 56, i1 false)
; CHECK-NEXT: %ptxcc.shareds = getelementptr inbounds i8, ptr %ptxcc.task, i64 48
; CHECK-NEXT: store ptr %ptxcc.shareds, ptr %ptxcc.task
; CHECK-NEXT: %[[R:.*]] = getelementptr inbounds i8, ptr %ptxcc.task, i64 8
; CHECK-NEXT: store ptr @.omp_task_entry., ptr %[[R]]
; CHECK-NEXT: %sh = load ptr, ptr %ptxcc.task
; CHECK-NEXT: store ptr %a, ptr %sh
; CHECK-NEXT: call i32 @.omp_task_entry.(i32 0, ptr %ptxcc.task)
; CHECK-NEXT: call i32 @.omp_task_entry.(i32 0, ptr %ptxcc.task)
; CHECK-NOT: __kmpc
; CHECK: ret void
define void @k(ptr %a) {
  call void @__kmpc_taskgroup(ptr null, i32 0)
  %t = call ptr @__kmpc_omp_task_alloc(ptr null, i32 0, i32 1, i64 44, i64 8, ptr @.omp_task_entry.)
  %sh = load ptr, ptr %t
  store ptr %a, ptr %sh
  %r = call i32 @__kmpc_omp_task(ptr null, i32 0, ptr %t)
  %r2 = call i32 @__kmpc_omp_task_with_deps(ptr null, i32 0, ptr %t, i32 0, ptr null, i32 0, ptr null)
  call void @__kmpc_end_taskgroup(ptr null, i32 0)
  ret void
}

define internal i32 @.omp_task_entry.(i32 %gtid, ptr %task) {
  %sh = load ptr, ptr %task
  call void @.omp_outlined.(i32 %gtid, ptr %task, ptr @.omp_task_privates_map., ptr %sh)
  ret i32 0
}
; CHECK-LABEL: define internal void @.omp_outlined.(
; CHECK: %f = load ptr, ptr %map.addr
; CHECK-NEXT: call void @.omp_task_privates_map.(ptr %task)
define internal void @.omp_outlined.(i32 %gtid, ptr %task, ptr %map, ptr %sh) {
  %map.addr = alloca ptr
  store ptr %map, ptr %map.addr
  %f = load ptr, ptr %map.addr
  call void %f(ptr %task)
  %p = load ptr, ptr %sh
  store i32 1, ptr %p
  ret void
}
define internal void @.omp_task_privates_map.(ptr %t) {
  ret void
}
declare void @__kmpc_taskgroup(ptr, i32)
declare void @__kmpc_end_taskgroup(ptr, i32)
declare ptr @__kmpc_omp_task_alloc(ptr, i32, i32, i64, i64, ptr)
declare i32 @__kmpc_omp_task(ptr, i32, ptr)
declare i32 @__kmpc_omp_task_with_deps(ptr, i32, ptr, i32, ptr, i32, ptr)
