; Task reductions in device code: device tasks are undeferred, so a participating task updates
; the list item it names (the thread's own under a reduction(task, …) modifier). The runtime's
; descriptor is the clause's input array, get_th_data answers the item itself, and the
; modifier's end has nothing to combine; no __kmpc call is left.
; RUN: ptxcc-opt --passes=tasks %s | FileCheck %s
target triple = "nvptx64-nvidia-cuda"

%struct.kmp_taskred_input_t = type { ptr, ptr, i64, ptr, ptr, ptr, i32 }

; CHECK-LABEL: define void @group(ptr %s)
; CHECK: store ptr %in, ptr %slot
; CHECK: call i32 @.omp_task_entry.(i32 0, ptr %ptxcc.task)
; CHECK-NOT: __kmpc
; CHECK: ret void
define void @group(ptr %s) {
  %in = alloca [1 x %struct.kmp_taskred_input_t], align 8
  call void @__kmpc_taskgroup(ptr null, i32 0)
  store ptr %s, ptr %in, align 8
  %tg = call ptr @__kmpc_taskred_init(i32 0, i32 1, ptr %in)
  %t = call ptr @__kmpc_omp_task_alloc(ptr null, i32 0, i32 1, i64 48, i64 8, ptr @.omp_task_entry.)
  %slot = getelementptr inbounds i8, ptr %t, i64 40
  store ptr %tg, ptr %slot, align 8
  %r = call i32 @__kmpc_omp_task(ptr null, i32 0, ptr %t)
  call void @__kmpc_end_taskgroup(ptr null, i32 0)
  ret void
}

; CHECK-LABEL: define void @modifier(ptr %priv)
; CHECK-NEXT: %in = alloca
; CHECK-NEXT: %keep = getelementptr
; CHECK-NEXT: store ptr %in, ptr %keep
; CHECK-NEXT: ret void
define void @modifier(ptr %priv) {
  %in = alloca [1 x %struct.kmp_taskred_input_t], align 8
  %tg = call ptr @__kmpc_taskred_modifier_init(ptr null, i32 0, i32 0, i32 1, ptr %in)
  %keep = getelementptr inbounds i8, ptr %priv, i64 0
  store ptr %tg, ptr %keep, align 8
  call void @__kmpc_task_reduction_modifier_fini(ptr null, i32 0, i32 0)
  ret void
}

; CHECK-LABEL: define internal i32 @.omp_task_entry.(i32 %gtid, ptr %task)
; CHECK: %item = load ptr, ptr %sh
; CHECK-NOT: call
; CHECK: %v = load i32, ptr %item
; CHECK-NEXT: %n = add i32 %v, 1
; CHECK-NEXT: store i32 %n, ptr %item
define internal i32 @.omp_task_entry.(i32 %gtid, ptr %task) {
  %sh = load ptr, ptr %task, align 8
  %item = load ptr, ptr %sh, align 8
  %tgp = getelementptr inbounds i8, ptr %task, i64 40
  %tg = load ptr, ptr %tgp, align 8
  %p = call ptr @__kmpc_task_reduction_get_th_data(i32 %gtid, ptr %tg, ptr %item)
  %v = load i32, ptr %p, align 4
  %n = add i32 %v, 1
  store i32 %n, ptr %p, align 4
  ret i32 0
}

; CHECK-NOT: declare {{.*}}@__kmpc
declare void @__kmpc_taskgroup(ptr, i32)
declare void @__kmpc_end_taskgroup(ptr, i32)
declare ptr @__kmpc_taskred_init(i32, i32, ptr)
declare ptr @__kmpc_taskred_modifier_init(ptr, i32, i32, i32, ptr)
declare void @__kmpc_task_reduction_modifier_fini(ptr, i32, i32)
declare ptr @__kmpc_task_reduction_get_th_data(i32, ptr, ptr)
declare ptr @__kmpc_omp_task_alloc(ptr, i32, i32, i64, i64, ptr)
declare i32 @__kmpc_omp_task(ptr, i32, ptr)
