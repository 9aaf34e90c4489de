; taskloop in device code (passes/src/taskloop.rs): __kmpc_taskloop becomes a loop that makes the
; tasks at once, in order: each a copy of the task clang built (memcpy into a second stack slot),
; its firstprivates and lastprivate flag set by the task-dup function (the flag 1 for the last
; task), its lb and ub (found at the offsets of the addresses clang passes) set to its share of
; the iterations, then its entry called. grainsize (sched 1) g: trip / g tasks, at least 1;
; num_tasks (sched 2) n: min(n, trip); the first trip % tasks tasks take one iteration more.
; RUN: ptxcc-opt --passes=tasks %s | FileCheck %s
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define void @k(ptr %a)
; CHECK-NEXT: %ptxcc.taskloop.task = alloca [88 x i8], align 16
; CHECK-NEXT: %ptxcc.task = alloca [88 x i8], align 16
; CHECK: %lb = load i64, ptr %lbp
; CHECK-NEXT: %ub = load i64, ptr %ubp
; A ub behind lb (on the step's other side) is no iteration, not one.
; CHECK: %trip = select i1 %{{.*}}, i64 %{{.*}}, i64 0
; CHECK: br i1 {{%.*}}, label %taskloop.task, label %taskloop.done
; CHECK: taskloop.task:
; CHECK-NEXT: %t = phi i64 [ 0, {{%.*}} ], [ [[NEXT:%.*]], %taskloop.task ]
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr align 16 %ptxcc.taskloop.task, ptr align 16 %ptxcc.task, i64 88, i1 false)
; CHECK: [[NEXT]] = add i64 %t, 1
; CHECK: [[LAST:%.*]] = icmp eq i64 [[NEXT]], %{{.*}}
; CHECK: [[FLAG:%.*]] = zext i1 [[LAST]] to i32
; CHECK-NEXT: call void @.omp_task_dup.(ptr %ptxcc.taskloop.task, ptr %ptxcc.task, i32 [[FLAG]])
; CHECK: [[LBP:%.*]] = getelementptr inbounds i8, ptr %ptxcc.taskloop.task, i64 [[LBOFF:%.*]]
; CHECK-NEXT: store i64 %{{.*}}, ptr [[LBP]]
; CHECK-NEXT: [[UBP:%.*]] = getelementptr inbounds i8, ptr %ptxcc.taskloop.task, i64 %{{.*}}
; CHECK-NEXT: store i64 %{{.*}}, ptr [[UBP]]
; CHECK-NEXT: call i32 @.omp_task_entry.(i32 0, ptr %ptxcc.taskloop.task)
; CHECK: br i1 %{{.*}}, label %taskloop.task, label %taskloop.done
; CHECK: taskloop.done:
; CHECK-NEXT: ret void
; CHECK-NOT: __kmpc_taskloop
define void @k(ptr %a) {
  %t = call ptr @__kmpc_omp_task_alloc(ptr null, i32 0, i32 1, i64 80, i64 8, ptr @.omp_task_entry.)
  %lbp = getelementptr inbounds i8, ptr %t, i64 40
  %ubp = getelementptr inbounds i8, ptr %t, i64 48
  store i64 0, ptr %lbp
  store i64 99, ptr %ubp
  call void @__kmpc_taskloop(ptr null, i32 0, ptr %t, i32 1, ptr %lbp, ptr %ubp, i64 1, i32 1, i32 1, i64 10, ptr @.omp_task_dup.)
  ret void
}

define internal i32 @.omp_task_entry.(i32 %gtid, ptr %task) {
  ret i32 0
}

define internal void @.omp_task_dup.(ptr %dst, ptr %src, i32 %last) {
  ret void
}

declare ptr @__kmpc_omp_task_alloc(ptr, i32, i32, i64, i64, ptr)
declare void @__kmpc_taskloop(ptr, i32, ptr, i32, ptr, ptr, i64, i32, i32, i64, ptr)
